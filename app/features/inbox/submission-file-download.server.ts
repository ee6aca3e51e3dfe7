import contentDisposition from "content-disposition";
import { and, eq } from "drizzle-orm";
import { type AppLoadContext, data } from "react-router";
import { isValidFileGrant } from "~/forms/submitter-keys.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { submissionFiles } from "~/services/db/schema.server";
import { requireReadableSubmission } from "./submission-access.server";
import { parseRecordId } from "./submission-detail.server";

/**
 * The types we let a browser treat as what they are: PDFs and the photos the app cleaned (typed by their
 * content, never by the sender's word, and never SVG). Anything else is bytes to save, never to render.
 */
const SERVED_AS_IS = new Set(["application/pdf", "image/jpeg", "image/png", "image/webp"]);

/** The file name in plain ASCII, for clients that do not read RFC 5987's filename*. */
const asciiFallback = (fileName: string) => fileName.replace(/[^\x20-\x7e]/g, "_");

/**
 * The headers of a stored file's download: always an attachment, never cached. X-Content-Type-Options:
 * nosniff comes from the security headers every response gets (server/app.ts); set here too, it would be
 * sent twice.
 */
export function downloadHeaders(file: { fileName: string; contentType: string; sizeBytes: number }): Headers {
  return new Headers({
    "Content-Type": SERVED_AS_IS.has(file.contentType) ? file.contentType : "application/octet-stream",
    "Content-Length": String(file.sizeBytes),
    "Content-Disposition": contentDisposition(file.fileName, { fallback: asciiFallback(file.fileName) }),
    "Cache-Control": "private, no-store",
  });
}

/**
 * A file of a submission (a resume, a peer review's PDF), to signed-in staff who may read the submission, or
 * who hold the grant its form gave them in the link (the sender of an anonymous form, for the document it
 * made); a 404 when the pair of ids matches none. A download by grant is logged without who made it, nor from
 * where: either would name the sender.
 */
export async function serveSubmissionFile(
  request: Request,
  context: AppLoadContext,
  params: { submissionId?: string; fileId?: string },
): Promise<Response> {
  const staff = signedInStaff(context);
  const submissionId = parseRecordId(params.submissionId, "file");
  const fileId = parseRecordId(params.fileId, "file");
  const grant = new URL(request.url).searchParams.get("grant");
  const granted =
    grant !== null &&
    isValidFileGrant(context.config.SESSION_SECRET, grant, { submissionId, fileId, userId: staff.id });
  if (!granted) await requireReadableSubmission(context.db, staff, submissionId);
  const [file] = await context.db
    .select()
    .from(submissionFiles)
    .where(and(eq(submissionFiles.id, fileId), eq(submissionFiles.submissionId, submissionId)));
  if (!file) throw data({ message: "No such file." }, { status: 404 });
  if (granted) context.keepClientOutOfLog();
  context.logger.info({ submissionId, fileId, ...(granted ? {} : { by: staff.id }) }, "submission file downloaded");
  return new Response(new Uint8Array(file.content), { headers: downloadHeaders(file) });
}
