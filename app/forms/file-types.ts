/**
 * The kinds of file a form accepts, each judged by what a file's first bytes show; its name and declared type
 * never count. `browserTypes` is what a browser may declare for one (its picker's filter); `sniff` is the server's
 * verdict, the type the file is kept with.
 */
export type FileType = {
  /** What such a file is, in a sentence: "a PDF". */
  described: string;
  /** The picker's filter: `accept` of the file input. */
  accept: string;
  /** The types a browser declares for such a file, for the check before sending; empty when browsers disagree. */
  browserTypes: readonly string[];
  sniff: (head: Uint8Array) => string | undefined;
};

/** The photo types a form accepts. */
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"] as const;

export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// An ISO base media file's major brand (bytes 8 to 11 after "ftyp"): HEVC-coded HEIC, or HEIF in general.
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
const HEIF_BRANDS = new Set(["mif1", "msf1"]);
const PDF_MAGIC = new TextEncoder().encode("%PDF-");

const ascii = (head: Uint8Array, start: number, end: number) => String.fromCharCode(...head.subarray(start, end));

/** The photo's type from its first bytes: JPEG, PNG, WebP, or HEIC/HEIF as iPhones take them; else undefined. */
export function sniffPhoto(head: Uint8Array): PhotoContentType | undefined {
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

/** Photos as phones take them. A HEIC is declared as image/heic, image/heif or nothing, so only the server judges. */
export const PHOTO: FileType = {
  described: "a photo we can read (JPEG, PNG, WebP or HEIC)",
  accept: "image/*,.heic,.heif",
  browserTypes: [],
  sniff: sniffPhoto,
};

export const PDF: FileType = {
  described: "a PDF",
  accept: "application/pdf,.pdf",
  browserTypes: ["application/pdf"],
  sniff: (head) => (PDF_MAGIC.every((byte, index) => head[index] === byte) ? "application/pdf" : undefined),
};
