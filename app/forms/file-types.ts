import * as z from "zod/mini";

/**
 * The kinds of file a form accepts, as the browser knows them: what the picker offers and which declared types
 * it may check before sending. The server judges a file by its first bytes alone (file-sniffing.server.ts).
 */
export type FileType = {
  name: FileTypeName;
  /** What such a file is, in a sentence: "a PDF". */
  described: string;
  /** The picker's filter: `accept` of the file input. */
  accept: string;
  /** The check of the type a browser declares for such a file, before sending; none where browsers disagree. */
  browserCheck?: (message: string) => z.core.$ZodCheck<File>;
};

export type FileTypeName = "photo" | "pdf";

/** Photos as phones take them. A HEIC is declared as image/heic, image/heif or nothing, so only the server judges. */
export const PHOTO: FileType = {
  name: "photo",
  described: "a photo we can read (JPEG, PNG, WebP or HEIC)",
  accept: "image/*,.heic,.heif",
};

export const PDF: FileType = {
  name: "pdf",
  described: "a PDF",
  accept: "application/pdf,.pdf",
  browserCheck: (message) => z.mime(["application/pdf"], message),
};
