import type { AppLoadContext } from "react-router";
import { discardPostedFiles, postedFileOnDisk, readFormBody } from "~/forms/read-form-body.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { photoWorkTasks } from "~/services/photos/clean-photo.server";
import { movingToWorkerAhead, WorkPoolFull } from "~/services/work-pool/work-pool.server";
import { checklistForm } from "./definition";
import { PHOTO_PREVIEW_FIELD } from "./photo-preview";
import { PHOTO_MAX_BYTES } from "./schema";

/** Four times the photo list's 64 by 48 thumbnail: sharp on any phone screen, and a few kilobytes. */
const PREVIEW_SIZE = { width: 256, height: 192 };

/** Room for the multipart boundary and part headers around the one photo. */
const ENVELOPE_BYTES = 64 * 1024;

const refusal = (status: number, message: string) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * A small JPEG of a photo picked for the checklist, for the browsers that cannot draw it (a HEIC anywhere
 * but Safari). Decoding libheif in the browser would need WebAssembly allowed in the page's script policy and
 * a 2 MB download; the server already decodes HEIC for the submit. The photo goes through the same cleaning
 * the submit gives it (upright, metadata and GPS removed) before it is shrunk; nothing is stored.
 */
export async function photoPreview(request: Request, context: AppLoadContext): Promise<Response> {
  signedInStaff(context);
  const body = await readFormBody(request, {
    maxBytes: PHOTO_MAX_BYTES + ENVELOPE_BYTES,
    files: [{ field: PHOTO_PREVIEW_FIELD, maxBytes: PHOTO_MAX_BYTES, maxCount: 1, type: "photo" }],
  });
  if (!body.ok) return refusal(body.status, body.status === 413 ? "The photo is too large." : "Send one photo.");
  const photo = body.formData.get(PHOTO_PREVIEW_FIELD);
  const onDisk = photo instanceof File ? postedFileOnDisk(photo) : undefined;
  if (!(photo instanceof File) || !onDisk) return refusal(400, "Send one photo.");
  const { config } = context;
  const cleaned = await movingToWorkerAhead(
    config,
    [],
    photoWorkTasks.cleanPhotoWithThumbnail,
    { fileName: photo.name, contentType: photo.type, path: onDisk.path },
    PREVIEW_SIZE,
    { photoPixels: config.PHOTO_MAX_PIXELS, submissionPixels: Infinity, submissionPixelsLeft: Infinity },
  )
    .catch((error: unknown) => {
      if (error instanceof WorkPoolFull) return undefined;
      throw error;
    })
    .finally(() => discardPostedFiles(body.formData));
  if (!cleaned) return refusal(503, checklistForm.messages.failed);
  if (!cleaned.ok) return refusal(422, `No preview: ${cleaned.reason}.`);
  // Made, since a box was given.
  const preview = cleaned.thumbnail as NonNullable<typeof cleaned.thumbnail>;
  return new Response(new Uint8Array(preview.jpeg), {
    headers: { "content-type": "image/jpeg", "cache-control": "private, no-store" },
  });
}
