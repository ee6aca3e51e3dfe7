import type { AnyFormDefinition, FieldDefinition } from "~/forms/definition";
import { answerRows, type StoredFileName } from "~/forms/print-answer";

/** The header fill of our tables: the blue of the original documents' tables, with white bold text. */
export const TABLE_HEADER_FILL = "#2980b9";
const TABLE_BORDER = "#c8ccd0";
const CELL_PADDING = 3;

/** The left edge and the width between the margins. */
function contentBox(doc: PDFKit.PDFDocument) {
  const left = doc.page.margins.left;
  return { left, width: doc.page.width - left - doc.page.margins.right };
}

/** A line of bold text across the page at `size` points, leaving the cursor below it. */
export function heading(doc: PDFKit.PDFDocument, text: string, size: number, align: "left" | "center" = "left") {
  const { left, width } = contentBox(doc);
  doc.font("bold").fontSize(size).fillColor("black").text(text, left, doc.y, { width, align });
  doc.font("regular");
}

/** A line of text at `size` points with a second text on the same line, aligned to the right margin. */
export function lineWithRightText(doc: PDFKit.PDFDocument, left: string, right: string, size: number) {
  const box = contentBox(doc);
  const y = doc.y;
  doc.font("regular").fontSize(size).fillColor("black");
  const rightWidth = doc.widthOfString(right);
  doc.text(left, box.left, y, { width: box.width - rightWidth - CELL_PADDING * 4 });
  const below = doc.y;
  doc.text(right, box.left + box.width - rightWidth, y, { lineBreak: false });
  doc.x = box.left;
  doc.y = below;
}

/** A paragraph of regular text at `size` points across the page. */
export function paragraph(doc: PDFKit.PDFDocument, text: string, size: number) {
  const { left, width } = contentBox(doc);
  doc.font("regular").fontSize(size).fillColor("black").text(text, left, doc.y, { width });
}

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
function ensureRoom(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= doc.page.height - doc.page.margins.bottom) return false;
  doc.addPage();
  return true;
}

/** The height of one label/answer pair across the page at `size` points. */
function labelledAnswerHeight(doc: PDFKit.PDFDocument, label: string, answer: string, size: number): number {
  const { width } = contentBox(doc);
  doc.fontSize(size);
  return doc.font("bold").heightOfString(label, { width }) + doc.font("regular").heightOfString(answer, { width });
}

/**
 * One field: the label in bold, the answer below it. The page breaks before a field, never through it,
 * unless the field alone is taller than a page: then it starts on a new page and its answer flows on.
 */
export function labelledAnswer(doc: PDFKit.PDFDocument, label: string, answer: string, size = 10) {
  const { left, width } = contentBox(doc);
  ensureRoom(doc, labelledAnswerHeight(doc, label, answer, size) + size / 2);
  doc.fontSize(size).font("bold").fillColor("black").text(label, left, doc.y, { width });
  doc.font("regular").text(answer, left, doc.y, { width });
  doc.moveDown(0.5);
}

/**
 * A section's heading in bold at `size` points, kept on one page with the first `keepWithNext` points that
 * follow it (its first field), so a heading never ends a page alone.
 */
export function sectionHeading(doc: PDFKit.PDFDocument, text: string, size: number, keepWithNext = 0) {
  const { left, width } = contentBox(doc);
  doc.fontSize(size).font("bold");
  const height = doc.heightOfString(text, { width });
  ensureRoom(doc, height + size / 2 + keepWithNext);
  doc.moveDown(0.3);
  doc.fillColor("black").text(text, left, doc.y, { width });
  doc.moveDown(0.3);
  doc.font("regular");
}

/**
 * Every field of a submission as the form labels it and the answer printer prints it (the same words as the
 * inbox, the CSV and the emails): the label in bold, the answer below it, a page break between fields. Fields
 * laid out in sections get their section's heading where a section starts. A file field is drawn by
 * `fileField` when given (a photo grid); otherwise it lists its files' names when `files` are given.
 */
export function labelledAnswers(
  doc: PDFKit.PDFDocument,
  definition: Pick<AnyFormDefinition, "fields">,
  payload: Record<string, unknown>,
  options: {
    size?: number;
    sectionSize?: number;
    files?: readonly StoredFileName[];
    fileField?: (field: FieldDefinition) => void;
  } = {},
) {
  const size = options.size ?? 10;
  let section: string | undefined;
  for (const field of definition.fields) {
    const [row] =
      field.kind === "file" && options.fileField ? [] : answerRows({ fields: [field] }, payload, options.files);
    if (field.section !== undefined && field.section !== section) {
      section = field.section;
      const firstHeight = row ? labelledAnswerHeight(doc, row[0], row[1], size) : size * 3;
      sectionHeading(doc, section, options.sectionSize ?? size + 3, firstHeight);
    }
    if (field.kind === "file" && options.fileField) options.fileField(field);
    else if (row) labelledAnswer(doc, row[0], row[1], size);
  }
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
    doc.fontSize(captionSize).font("regular");
    const captionHeight = Math.max(...row.map((image) => doc.heightOfString(image.caption, { width: cellWidth })));
    ensureRoom(doc, cellHeight + captionHeight + gap);
    const top = doc.y;
    for (const [index, image] of row.entries()) {
      const x = left + index * (cellWidth + gap);
      doc.image(Buffer.from(image.jpeg), x + (cellWidth - image.width) / 2, top + (cellHeight - image.height), {
        width: image.width,
        height: image.height,
      });
      doc.fillColor("black").text(image.caption, x, top + cellHeight + 2, { width: cellWidth, align: "center" });
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
  doc.fontSize(size);
  const rowHeight = (cells: readonly string[], font: "regular" | "bold") => {
    doc.font(font);
    const heights = columns.map(
      (column, index) =>
        doc.heightOfString(cells[index] ?? "", { width: column.width - CELL_PADDING * 2 }) + CELL_PADDING * 2,
    );
    return Math.max(...heights);
  };
  const drawRow = (cells: readonly string[], top: number, height: number, header: boolean) => {
    if (header) doc.rect(x, top, totalWidth, height).fill(TABLE_HEADER_FILL);
    doc.lineWidth(0.5).strokeColor(TABLE_BORDER).rect(x, top, totalWidth, height).stroke();
    doc.font(header ? "bold" : "regular").fillColor(header ? "white" : "black");
    let left = x;
    for (const [index, column] of columns.entries()) {
      doc.text(cells[index] ?? "", left + CELL_PADDING, top + CELL_PADDING, {
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
