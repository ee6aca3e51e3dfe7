import { createRequire } from "node:module";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);

/**
 * Noto Sans, embedded (subset) in every PDF we make: it covers Latin, Greek, Cyrillic and Vietnamese, so a
 * name such as "Nguyễn" or "Łukasz" prints as typed, which pdfkit's built-in Helvetica cannot do.
 */
const NOTO_SANS = {
  regular: require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
} as const;

export type PdfFont = keyof typeof NOTO_SANS;

/** Millimetres in PDF points: the original documents were laid out in millimetres on A4. */
export const mm = (millimetres: number) => (millimetres * 72) / 25.4;

export type PdfDocumentOptions = {
  title: string;
  /** Page margins in points (default 20 mm all round). */
  margin?: number;
};

/**
 * An A4 document in Noto Sans, with the fonts registered as "regular" and "bold" and the title in its
 * metadata. Draw on it, then hand it to `toBuffer`.
 */
export function createPdfDocument({ title, margin = mm(20) }: PdfDocumentOptions): PDFKit.PDFDocument {
  // `font` names the first font so pdfkit never loads its built-in Helvetica, which could not print "ễ".
  const doc = new PDFDocument({ size: "A4", margin, font: NOTO_SANS.regular, info: { Title: title }, lang: "en-US" });
  doc.registerFont("regular", NOTO_SANS.regular);
  doc.registerFont("bold", NOTO_SANS.bold);
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
