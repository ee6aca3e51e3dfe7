import type { FileTypeName } from "./file-types";

/** The photo types a form accepts. */
const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"] as const;

type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// An ISO base media file's major brand (bytes 8 to 11 after "ftyp"): HEVC-coded HEIC, or HEIF in general.
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
const HEIF_BRANDS = new Set(["mif1", "msf1"]);
const PDF_MAGIC = new TextEncoder().encode("%PDF-");

const ascii = (head: Uint8Array, start: number, end: number) => String.fromCharCode(...head.subarray(start, end));

/** The photo's type from its first bytes: JPEG, PNG, WebP, or HEIC/HEIF as iPhones take them; else undefined. */
function sniffPhoto(head: Uint8Array): PhotoContentType | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return "image/png";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp";
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (HEIC_BRANDS.has(brand)) return "image/heic";
    if (HEIF_BRANDS.has(brand)) return "image/heif";
  }
  return undefined;
}

const sniffPdf = (head: Uint8Array) =>
  PDF_MAGIC.every((byte, index) => head[index] === byte) ? "application/pdf" : undefined;

/**
 * The content type a file's first bytes show for a field of `type`, or undefined when they are not acceptable.
 * The file is kept with this type, never the one the browser declared.
 */
export function sniffFile(type: FileTypeName, head: Uint8Array): string | undefined {
  return type === "photo" ? sniffPhoto(head) : sniffPdf(head);
}
