import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { extractText, getDocumentProxy } from "unpdf";

/**
 * The text of every page of a PDF, read back as a PDF reader sees it, pages joined by a line break, in NFC:
 * the font draws some Vietnamese letters as a base letter and a combining mark, read back as two characters.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  // unpdf's reader takes over the buffer it is given: hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(document, { mergePages: false });
  return text.join("\n").normalize("NFC");
}

/**
 * The page content streams of a PDF (what draws its text, lines and fills), inflated where compressed: the
 * streams that a page's /Contents names. (unpdf's operator list needs a Node newer than 20.)
 */
export function pdfContentStreams(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes);
  const text = raw.toString("latin1");
  const contentIds = new Set(Array.from(text.matchAll(/\/Contents (\d+) 0 R/g), (match) => match[1]));
  const streams: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)(\d+) 0 obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g)) {
    const dictionary = match[2] ?? "";
    const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1]);
    if (!contentIds.has(match[1]) || !Number.isInteger(length)) continue;
    const start = (match.index ?? 0) + match[0].length;
    const body = raw.subarray(start, start + length);
    streams.push((dictionary.includes("/FlateDecode") ? inflateSync(body) : body).toString("latin1"));
  }
  return streams;
}

/** The operands of a fill colour given as #rrggbb, as pdfkit writes them before `scn` (or `rg`). */
export function rgbOperands(hex: string): string {
  return [1, 3, 5].map((offset) => String(Number.parseInt(hex.slice(offset, offset + 2), 16) / 255)).join(" ");
}

/** `pdfimages -list` of a PDF (Debian's poppler-utils): one row per image, width and height in pixels. */
export function imagesIn(pdf: Uint8Array): Array<{ width: number; height: number; type: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-images-"));
  try {
    const file = path.join(dir, "list.pdf");
    writeFileSync(file, pdf);
    const lines = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
    return lines.map((line) => {
      const columns = line.trim().split(/\s+/);
      return { type: columns[2] ?? "", width: Number(columns[3]), height: Number(columns[4]) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
