import { ascentOf, type PdfWeight, textRuns } from "./pdf-document.server";

/** The header fill of our tables: the blue of the original documents' tables, with white bold text. */
export const TABLE_HEADER_FILL = "#2980b9";
const TABLE_BORDER = "#c8ccd0";
const CELL_PADDING = 3;

/** The left edge and the width between the margins. */
function contentBox(doc: PDFKit.PDFDocument) {
  const left = doc.page.margins.left;
  return { left, width: doc.page.width - left - doc.page.margins.right };
}

type TextStyle = { weight: PdfWeight; size: number };

/**
 * Every text of every PDF is written here: `text` in `weight` at `size` points, at (x, y), each run in the
 * font that has its glyphs (textRuns). Runs after the first go on in the same lines, wrapped and aligned by
 * pdfkit, on the main font's baseline and line height.
 */
function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  { weight, size }: TextStyle,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
) {
  doc.font(weight).fontSize(size);
  const lineHeight = doc.currentLineHeight(true);
  const runs = textRuns(text, weight);
  const placed = runs.length > 1 ? alignedByHand(doc, text, { weight, size }, x, options) : { x, options };
  for (const [index, run] of runs.entries()) {
    doc.font(run.font);
    const inMainFont = run.font === weight;
    const runOptions = {
      ...placed.options,
      continued: index < runs.length - 1,
      ...(inMainFont
        ? {}
        : {
            baseline: -ascentOf(weight) * size,
            lineGap: lineHeight - doc.currentLineHeight(true) + (placed.options.lineGap ?? 0),
          }),
    };
    if (index === 0) doc.text(run.text, placed.x, y, runOptions);
    else doc.text(run.text, runOptions);
  }
  doc.font(weight);
}

/**
 * pdfkit aligns each run of continued text on its own, so text of several runs centred or set right is placed
 * here instead: a line that fits is moved along and written left-aligned in its own width; longer text is
 * left-aligned.
 */
function alignedByHand(
  doc: PDFKit.PDFDocument,
  text: string,
  style: TextStyle,
  x: number,
  options: PDFKit.Mixins.TextOptions,
): { x: number; options: PDFKit.Mixins.TextOptions } {
  const left = { ...options, align: "left" } as const;
  if ((options.align !== "center" && options.align !== "right") || options.width === undefined) return { x, options };
  const width = widthOfText(doc, text, style);
  if (width > options.width) return { x, options: left };
  const room = options.width - width;
  // A point to spare, so the line is not wrapped over rounding.
  return { x: x + (options.align === "center" ? room / 2 : room), options: { ...left, width: width + 1 } };
}

/** The width of `text` on one line, each run measured in its font. */
function widthOfText(doc: PDFKit.PDFDocument, text: string, { weight, size }: TextStyle): number {
  doc.fontSize(size);
  const width = textRuns(text, weight).reduce((sum, run) => sum + doc.font(run.font).widthOfString(run.text), 0);
  doc.font(weight);
  return width;
}

/**
 * The height of `text` wrapped in `width`, measured in the main font with each grapheme of another font's run
 * standing in as a wide letter: the fallback font's lines are no taller than the main font's.
 */
function heightOfText(doc: PDFKit.PDFDocument, text: string, { weight, size }: TextStyle, width: number): number {
  const measured = textRuns(text, weight)
    .map((run) => (run.font === weight ? run.text : run.text.replace(/\S/gu, "M")))
    .join("");
  return doc.font(weight).fontSize(size).heightOfString(measured, { width });
}

/** A line of bold text across the page at `size` points, leaving the cursor below it. */
export function heading(doc: PDFKit.PDFDocument, text: string, size: number, align: "left" | "center" = "left") {
  const { left, width } = contentBox(doc);
  doc.fillColor("black");
  writeText(doc, text, { weight: "bold", size }, left, doc.y, { width, align });
  doc.font("regular");
}

/** A line of text at `size` points with a second text on the same line, aligned to the right margin. */
export function lineWithRightText(doc: PDFKit.PDFDocument, left: string, right: string, size: number) {
  const box = contentBox(doc);
  const y = doc.y;
  const style = { weight: "regular", size } as const;
  doc.fillColor("black");
  const rightWidth = widthOfText(doc, right, style);
  writeText(doc, left, style, box.left, y, { width: box.width - rightWidth - CELL_PADDING * 4 });
  const below = doc.y;
  writeText(doc, right, style, box.left + box.width - rightWidth, y, { lineBreak: false });
  doc.x = box.left;
  doc.y = below;
}

/** A paragraph of regular text at `size` points across the page. */
export function paragraph(doc: PDFKit.PDFDocument, text: string, size: number) {
  const { left, width } = contentBox(doc);
  doc.fillColor("black");
  writeText(doc, text, { weight: "regular", size }, left, doc.y, { width });
}

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
function ensureRoom(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= doc.page.height - doc.page.margins.bottom) return false;
  doc.addPage();
  return true;
}

/** The height of one label/answer pair across the page at `size` points. */
export function labelledAnswerHeight(doc: PDFKit.PDFDocument, label: string, answer: string, size: number): number {
  const { width } = contentBox(doc);
  return (
    heightOfText(doc, label, { weight: "bold", size }, width) +
    heightOfText(doc, answer, { weight: "regular", size }, width)
  );
}

/**
 * One field: the label in bold, the answer below it. The page breaks before a field, never through it,
 * unless the field alone is taller than a page: then it starts on a new page and its answer flows on.
 */
export function labelledAnswer(doc: PDFKit.PDFDocument, label: string, answer: string, size = 10) {
  const { left, width } = contentBox(doc);
  ensureRoom(doc, labelledAnswerHeight(doc, label, answer, size) + size / 2);
  doc.fillColor("black");
  writeText(doc, label, { weight: "bold", size }, left, doc.y, { width });
  writeText(doc, answer, { weight: "regular", size }, left, doc.y, { width });
  doc.moveDown(0.5);
}

/**
 * A section's heading in bold at `size` points, kept on one page with the first `keepWithNext` points that
 * follow it (its first field), so a heading never ends a page alone.
 */
export function sectionHeading(doc: PDFKit.PDFDocument, text: string, size: number, keepWithNext = 0) {
  const { left, width } = contentBox(doc);
  const style = { weight: "bold", size } as const;
  const height = heightOfText(doc, text, style, width);
  ensureRoom(doc, height + size / 2 + keepWithNext);
  doc.moveDown(0.3);
  doc.fillColor("black");
  writeText(doc, text, style, left, doc.y, { width });
  doc.moveDown(0.3);
  doc.font("regular");
}

/** An image to draw: JPEG bytes and the size it is drawn at, in points. */
export type PdfImage = { jpeg: Uint8Array; width: number; height: number; caption: string };

/**
 * Images in rows of cells `cellWidth` by `cellHeight` points, each centred in its cell with its caption
 * below; a page breaks between rows, never through one.
 */
export function imageGrid(
  doc: PDFKit.PDFDocument,
  images: readonly PdfImage[],
  {
    cellWidth,
    cellHeight,
    gap = 8,
    captionSize = 8,
  }: { cellWidth: number; cellHeight: number; gap?: number; captionSize?: number },
) {
  const { left, width } = contentBox(doc);
  const perRow = Math.max(1, Math.floor((width + gap) / (cellWidth + gap)));
  for (let start = 0; start < images.length; start += perRow) {
    const row = images.slice(start, start + perRow);
    const captionStyle = { weight: "regular", size: captionSize } as const;
    const captionHeight = Math.max(...row.map((image) => heightOfText(doc, image.caption, captionStyle, cellWidth)));
    ensureRoom(doc, cellHeight + captionHeight + gap);
    const top = doc.y;
    for (const [index, image] of row.entries()) {
      const x = left + index * (cellWidth + gap);
      doc.image(Buffer.from(image.jpeg), x + (cellWidth - image.width) / 2, top + (cellHeight - image.height), {
        width: image.width,
        height: image.height,
      });
      doc.fillColor("black");
      writeText(doc, image.caption, captionStyle, x, top + cellHeight + 2, { width: cellWidth, align: "center" });
    }
    doc.x = left;
    doc.y = top + cellHeight + 2 + captionHeight + gap;
  }
}

export type TableColumn = { header: string; width: number; align?: "left" | "center" | "right" };

/**
 * A table at (x, y): a header row filled blue with white bold text, then one row per entry, each as tall as
 * its tallest cell. A row that does not fit starts a new page, where the header is drawn again. Leaves the
 * cursor below the table.
 */
export function table(
  doc: PDFKit.PDFDocument,
  {
    x,
    y,
    columns,
    rows,
    size = 10,
  }: { x: number; y: number; columns: readonly TableColumn[]; rows: readonly string[][]; size?: number },
) {
  const totalWidth = columns.reduce((sum, column) => sum + column.width, 0);
  const rowHeight = (cells: readonly string[], weight: PdfWeight) => {
    const heights = columns.map(
      (column, index) =>
        heightOfText(doc, cells[index] ?? "", { weight, size }, column.width - CELL_PADDING * 2) + CELL_PADDING * 2,
    );
    return Math.max(...heights);
  };
  const drawRow = (cells: readonly string[], top: number, height: number, header: boolean) => {
    if (header) doc.rect(x, top, totalWidth, height).fill(TABLE_HEADER_FILL);
    doc.lineWidth(0.5).strokeColor(TABLE_BORDER).rect(x, top, totalWidth, height).stroke();
    doc.fillColor(header ? "white" : "black");
    const style = { weight: header ? "bold" : "regular", size } as const;
    let left = x;
    for (const [index, column] of columns.entries()) {
      writeText(doc, cells[index] ?? "", style, left + CELL_PADDING, top + CELL_PADDING, {
        width: column.width - CELL_PADDING * 2,
        align: column.align ?? "left",
      });
      left += column.width;
    }
    doc.fillColor("black");
  };

  const headers = columns.map((column) => column.header);
  const headerHeight = rowHeight(headers, "bold");
  let top = y;
  drawRow(headers, top, headerHeight, true);
  top += headerHeight;
  for (const row of rows) {
    const height = rowHeight(row, "regular");
    doc.y = top;
    if (ensureRoom(doc, height)) {
      top = doc.page.margins.top;
      drawRow(headers, top, headerHeight, true);
      top += headerHeight;
    }
    drawRow(row, top, height, false);
    top += height;
  }
  doc.font("regular");
  doc.x = doc.page.margins.left;
  doc.y = top + size / 2;
}
