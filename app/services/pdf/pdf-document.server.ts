import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);

/**
 * Noto Sans, embedded (subset) in every PDF we make: it covers Latin, Greek, Cyrillic and Vietnamese, so a
 * name such as "Nguyễn" or "Łukasz" prints as typed, which pdfkit's built-in Helvetica cannot do. DejaVu Sans
 * prints what Noto Sans lacks and people type: ≈, →, ✓, ☐, ⚠, box drawing, some emoticons. It is embedded only
 * in a PDF that uses it, and then only its glyphs used.
 */
const FONT_FILES = {
  regular: require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
  "fallback-regular": require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  "fallback-bold": require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
} as const;

/** The fonts a PDF may use, registered under these names. */
export type PdfFont = keyof typeof FONT_FILES;
/** The weights text is written in; each has its main font and its fallback. */
export type PdfWeight = "regular" | "bold";

/** Each weight's fonts, its main font (named as the weight) first. */
const FONTS_OF_WEIGHT: Record<PdfWeight, readonly [PdfWeight, ...PdfFont[]]> = {
  regular: ["regular", "fallback-regular"],
  bold: ["bold", "fallback-bold"],
};

/** Each font file's bytes, read once: for pdfkit (which would read the file for every document) and the glyph tables. */
const fontFiles = new Map<PdfFont, Buffer>();
function fontBytes(font: PdfFont): Buffer {
  let bytes = fontFiles.get(font);
  if (!bytes) {
    bytes = readFileSync(FONT_FILES[font]);
    fontFiles.set(font, bytes);
  }
  return bytes;
}

/** Each font file read by fontkit once, to ask which characters it has (pdfkit does not fall back by itself). */
const glyphTables = new Map<PdfFont, fontkit.Font>();
function glyphTable(font: PdfFont): fontkit.Font {
  let table = glyphTables.get(font);
  if (!table) {
    const opened = fontkit.create(fontBytes(font));
    if (!("hasGlyphForCodePoint" in opened)) throw new Error(`${FONT_FILES[font]} is a font collection`);
    table = opened;
    glyphTables.set(font, table);
  }
  return table;
}

/** Line breaks and tabs (pdfkit lays them out), joiners and variation selectors: printed with no glyph. */
const NO_GLYPH_NEEDED = new Set([0x09, 0x0a, 0x0d, 0x200c, 0x200d, 0xfe0e, 0xfe0f]);

/** The code points of a grapheme a font must have to print it. */
const neededCodePoints = (grapheme: string) =>
  Array.from(grapheme, (character) => character.codePointAt(0) ?? 0).filter((code) => !NO_GLYPH_NEEDED.has(code));

/** What is printed for a grapheme no embedded font has: "[emoji]", or its code points ("[U+4E2D]"). */
export function missingGlyphPlaceholder(grapheme: string): string {
  if (/\p{Extended_Pictographic}/u.test(grapheme)) return "[emoji]";
  const codePoints = Array.from(
    grapheme,
    (character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  return `[${codePoints.join(" ")}]`;
}

/** How far a font's baseline sits below the top of its line, in ems (pdfkit places text by this). */
export function ascentOf(font: PdfFont): number {
  const table = glyphTable(font);
  return table.ascent / table.unitsPerEm;
}

export type TextRun = { font: PdfFont; text: string };

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * The text split into runs, each in the first font of the weight that has all of its characters; a grapheme
 * (a letter with its accents, an emoji sequence) is never split. One that no font has becomes a placeholder in
 * the main font. Text the main font prints whole is one run.
 */
export function textRuns(text: string, weight: PdfWeight): TextRun[] {
  const main = weight;
  const runs: TextRun[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const needed = neededCodePoints(segment);
    const font = FONTS_OF_WEIGHT[weight].find((candidate) =>
      needed.every((code) => glyphTable(candidate).hasGlyphForCodePoint(code)),
    );
    const run = font ? { font, text: segment } : { font: main, text: missingGlyphPlaceholder(segment) };
    const last = runs.at(-1);
    if (last?.font === run.font) last.text += run.text;
    else runs.push(run);
  }
  return runs.length > 0 ? runs : [{ font: main, text }];
}

/** Millimetres in PDF points: the original documents were laid out in millimetres on A4. */
export const mm = (millimetres: number) => (millimetres * 72) / 25.4;

export type PdfDocumentOptions = {
  title: string;
  /** Page margins in points (default 20 mm all round). */
  margin?: number;
};

/**
 * An A4 document in Noto Sans, with the fonts registered under their PdfFont names and the title in its
 * metadata. Draw on it with pdf-layout.server.ts, which writes every text through `textRuns`, then hand it to
 * `toBuffer`.
 */
export function createPdfDocument({ title, margin = mm(20) }: PdfDocumentOptions): PDFKit.PDFDocument {
  // No font at first ("" opens none, where leaving it out would open the built-in Helvetica, which cannot print
  // "ễ"). pdfkit keeps a font under the name it was asked by only when no font of the same PostScript name is
  // open yet: a first font opened from its file made every later doc.font("regular") parse the file again, and
  // that was most of a PDF's time.
  const doc = new PDFDocument({ size: "A4", margin, font: "", info: { Title: title }, lang: "en-US" });
  for (const name of Object.keys(FONT_FILES) as PdfFont[]) doc.registerFont(name, fontBytes(name));
  doc.font("regular");
  return doc;
}

/** Ends the document and resolves with its bytes. */
export function toBuffer(doc: PDFKit.PDFDocument): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
    doc.end();
  });
}
