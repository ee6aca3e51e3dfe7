import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pdfText } from "#tests/pdf-reading";
import { createPdfDocument, toBuffer } from "./pdf-document.server";
import { heading, labelledAnswer, lineWithRightText, paragraph, sectionHeading, table } from "./pdf-layout.server";

const workDir = mkdtempSync(path.join(tmpdir(), "pdf-layout-test-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The fonts a PDF embeds, by name without the subset prefix (`pdffonts` from Debian's poppler-utils). */
function embeddedFonts(pdf: Uint8Array): string[] {
  const file = path.join(workDir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(file, pdf);
  const lines = execFileSync("pdffonts", [file], { encoding: "utf8" }).trim().split("\n").slice(2);
  return [...new Set(lines.map((line) => (line.split(/\s+/)[0] ?? "").replace(/^[A-Z]{6}\+/, "")))].sort();
}

/** One text written by every writer of the layout: headings, lines, paragraphs, fields and table cells. */
async function everyWriter(text: string): Promise<Uint8Array> {
  const doc = createPdfDocument({ title: "Symbols" });
  heading(doc, `Heading ${text}`, 18, "center");
  lineWithRightText(doc, `Left ${text}`, `Right ${text}`, 12);
  paragraph(doc, `Paragraph ${text}`, 11);
  sectionHeading(doc, `Section ${text}`, 13);
  labelledAnswer(doc, `Label ${text}`, `Answer ${text}`);
  table(doc, {
    x: doc.page.margins.left,
    y: doc.y,
    columns: [
      { header: `Header ${text}`, width: 200 },
      { header: "#", width: 100, align: "center" },
    ],
    rows: [[`Cell ${text}`, text]],
  });
  return toBuffer(doc);
}

const SYMBOLS = "≈ 240 V → panel ✓ done, 90° bend ☐ ⚠";

describe("text in the PDFs", () => {
  it("prints ≈, →, ✓, °, ☐ and ⚠ with the fallback font, in every kind of text", async () => {
    const pdf = await everyWriter(SYMBOLS);
    const text = (await pdfText(pdf)).replace(/\s+/g, " ");
    for (const writer of ["Heading", "Left", "Right", "Paragraph", "Section", "Label", "Answer", "Header", "Cell"]) {
      expect(text, writer).toContain(`${writer} ${SYMBOLS}`);
    }
    expect(embeddedFonts(pdf)).toEqual(["DejaVuSans", "DejaVuSans-Bold", "NotoSans-Bold", "NotoSans-Regular"]);
  });

  it("shows an emoji or a script no font has as a readable placeholder, never an empty box", async () => {
    // A narrow cell wraps between two placeholders.
    const text = (await pdfText(await everyWriter("Crew 🦄 meets 张伟 at 7")))
      .replace(/\s+/g, " ")
      .replaceAll("] [", "][");
    for (const writer of ["Heading", "Left", "Right", "Paragraph", "Section", "Label", "Answer", "Header", "Cell"]) {
      expect(text, writer).toContain(`${writer} Crew [emoji] meets [U+5F20][U+4F1F] at 7`);
    }
  });

  it("embeds the fallback font only in a PDF that needs it", async () => {
    expect(embeddedFonts(await everyWriter("Nguyễn Łukasz, 12 A"))).toEqual(["NotoSans-Bold", "NotoSans-Regular"]);
  });
});
