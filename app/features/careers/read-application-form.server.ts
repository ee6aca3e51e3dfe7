import {
  type FileUpload,
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import {
  APPLICATION_TOO_LARGE_MESSAGE,
  RESUME_MAX_BYTES,
  RESUME_NOT_PDF_MESSAGE,
  RESUME_TOO_LARGE_MESSAGE,
  UNREADABLE_APPLICATION_MESSAGE,
} from "./schema";

/** Every text answer together stays far below this; the resume comes on top. */
const TEXT_FIELDS_MAX_BYTES = 64 * 1024;
/** The whole body: the resume, the text answers and the multipart headers around them. */
export const APPLICATION_BODY_MAX_BYTES = RESUME_MAX_BYTES + TEXT_FIELDS_MAX_BYTES;
/** The form has some 30 inputs. */
const MAX_PARTS = 60;
const PDF_MAGIC = new TextEncoder().encode("%PDF-");

export type ApplicationFormRead =
  | { ok: true; formData: FormData }
  | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * Reads the posted application while it streams in. The parser stops at the first part past 5 MB and at a
 * body past the total cap, so an oversized upload is refused without being read (let alone held) whole; a
 * resume that does not start like a PDF is refused whatever its name says.
 */
export async function readApplicationForm(request: Request): Promise<ApplicationFormRead> {
  const declaredLength = Number(request.headers.get("content-length") ?? 0);
  if (declaredLength > APPLICATION_BODY_MAX_BYTES) {
    return { ok: false, status: 413, message: RESUME_TOO_LARGE_MESSAGE };
  }
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data|^application\/x-www-form-urlencoded/i.test(contentType)) {
    return { ok: false, status: 415, message: UNREADABLE_APPLICATION_MESSAGE };
  }
  let notPdf = false;
  try {
    const formData = await parseFormData(
      request,
      { maxFiles: 1, maxFileSize: RESUME_MAX_BYTES, maxTotalSize: APPLICATION_BODY_MAX_BYTES, maxParts: MAX_PARTS },
      async (upload: FileUpload) => {
        if (upload.fieldName !== "resume") return null;
        // A file input left empty still sends a part, with no content.
        if (upload.size === 0) return null;
        const bytes = new Uint8Array(await upload.arrayBuffer());
        if (!startsWith(bytes, PDF_MAGIC)) {
          notPdf = true;
          return null;
        }
        return new File([bytes], upload.name, { type: "application/pdf" });
      },
    );
    if (notPdf) return { ok: false, status: 400, message: RESUME_NOT_PDF_MESSAGE };
    return { ok: true, formData };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) return { ok: false, status: 413, message: RESUME_TOO_LARGE_MESSAGE };
    if (error instanceof MaxTotalSizeExceededError) {
      return { ok: false, status: 413, message: APPLICATION_TOO_LARGE_MESSAGE };
    }
    // The parser's other limits (header size, part count, file count) and malformed bodies.
    if (error instanceof FormDataParseError || error instanceof MultipartParseError) {
      return { ok: false, status: 400, message: UNREADABLE_APPLICATION_MESSAGE };
    }
    throw error;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}
