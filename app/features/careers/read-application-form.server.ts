import { type BodyProblem, readFormBody } from "~/forms/read-form-body.server";
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
const APPLICATION_BODY_MAX_BYTES = RESUME_MAX_BYTES + TEXT_FIELDS_MAX_BYTES;
/** The form has some 30 inputs. */
const MAX_PARTS = 60;
const PDF_MAGIC = new TextEncoder().encode("%PDF-");

const MESSAGES: Record<BodyProblem["kind"], string> = {
  "too-large": APPLICATION_TOO_LARGE_MESSAGE,
  "file-too-large": RESUME_TOO_LARGE_MESSAGE,
  "too-many-files": UNREADABLE_APPLICATION_MESSAGE,
  "wrong-type": RESUME_NOT_PDF_MESSAGE,
  "not-a-form": UNREADABLE_APPLICATION_MESSAGE,
  unreadable: UNREADABLE_APPLICATION_MESSAGE,
};

export type ApplicationFormRead =
  | { ok: true; formData: FormData }
  | { ok: false; status: 400 | 413 | 415; message: string };

/** The posted application, read within its caps, with at most one resume that starts like a PDF. */
export async function readApplicationForm(request: Request): Promise<ApplicationFormRead> {
  const read = await readFormBody(request, {
    maxBytes: APPLICATION_BODY_MAX_BYTES,
    maxParts: MAX_PARTS,
    files: [
      {
        field: "resume",
        maxBytes: RESUME_MAX_BYTES,
        maxCount: 1,
        sniff: (head) => (PDF_MAGIC.every((byte, index) => head[index] === byte) ? "application/pdf" : undefined),
      },
    ],
  });
  if (read.ok) return read;
  const status = read.problem.kind === "not-a-form" ? 415 : read.status;
  return { ok: false, status, message: MESSAGES[read.problem.kind] };
}
