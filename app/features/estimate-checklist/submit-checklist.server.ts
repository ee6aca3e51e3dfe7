import type { AppLoadContext } from "react-router";
import { type PreparedUploads, submitForm } from "~/forms/submit-form.server";
import type { SubmittedFile } from "~/outbox/submission-store.server";
import type { Config } from "~/server/config.server";
import type { PdfImage } from "~/server/pdf/pdf-layout.server";
import { inWorker } from "~/server/work-pool.server";
import { CHECKLIST_THUMBNAIL_PIXELS, checklistPdfImage } from "./checklist-pdf.server";
import { CHECKLIST_PDF_FIELD, checklistForm } from "./definition";
import { checklistFileName } from "./file-name";
import { checklistAnswers } from "./schema";

/**
 * The checklist's action: the photos are stored upright and without their location, the PDF is built from
 * the answers and the photos' thumbnails, and both are stored with the checklist and its deliveries in one
 * transaction. The photos and the PDF are made in the work pool's threads, before the database is asked for
 * a connection.
 */
export function submitChecklist(request: Request, context: AppLoadContext) {
  // Each photo's thumbnail for the PDF, by the photo's stored bytes, made with its cleaning: the PDF's thread
  // gets these, not the photos.
  const thumbnails = new Map<Uint8Array, PdfImage>();
  return submitForm(request, context, checklistForm, {
    payload: checklistAnswers,
    prepareUploads: async (uploads) => cleanPhotos(uploads, context.config, thumbnails),
    document: async (answers, _context, photos) => {
      const submittedAt = new Date();
      const images: PdfImage[] = [];
      for (const photo of photos.files) {
        // A photo that went up while the form was filled was cleaned then: only its thumbnail is made now.
        const image = thumbnails.get(photo.content) ?? (await thumbnailOfCleaned(photo, context.config));
        if (image) images.push(image);
      }
      return [
        {
          fieldName: CHECKLIST_PDF_FIELD,
          fileName: checklistFileName(answers.projectName, submittedAt),
          contentType: "application/pdf",
          content: await inWorker(
            context.config,
            "checklistPdf",
            answers,
            { images, problems: photos.problems },
            submittedAt,
          ),
        },
      ];
    },
  });
}

/**
 * Every photo cleaned, one at a time (each is tens of megabytes decoded), with its thumbnail for the PDF; one
 * that cannot be, or is past the pixel caps, is left out with why.
 */
async function cleanPhotos(
  uploads: SubmittedFile[],
  config: Config,
  thumbnails: Map<Uint8Array, PdfImage>,
): Promise<PreparedUploads> {
  const prepared: PreparedUploads = { files: [], problems: [] };
  let pixelsUsed = 0;
  for (const upload of uploads) {
    const cleaned = await inWorker(config, "cleanPhotoWithThumbnail", upload, CHECKLIST_THUMBNAIL_PIXELS, {
      photoPixels: config.PHOTO_MAX_PIXELS,
      submissionPixels: config.SUBMISSION_MAX_PIXELS,
      submissionPixelsLeft: config.SUBMISSION_MAX_PIXELS - pixelsUsed,
    });
    if (cleaned.ok) {
      pixelsUsed += cleaned.pixels;
      prepared.files.push({ ...upload, ...cleaned.file });
      thumbnails.set(cleaned.file.content, checklistPdfImage(cleaned.thumbnail, cleaned.file.fileName));
    } else {
      prepared.problems.push({ fieldName: upload.fieldName, fileName: upload.fileName, reason: cleaned.reason });
    }
  }
  return prepared;
}

/** The PDF's thumbnail of a photo already cleaned, made in the work pool; none if it cannot be decoded. */
async function thumbnailOfCleaned(photo: SubmittedFile, config: Config): Promise<PdfImage | undefined> {
  const caps = {
    photoPixels: config.PHOTO_MAX_PIXELS,
    submissionPixels: config.PHOTO_MAX_PIXELS,
    submissionPixelsLeft: config.PHOTO_MAX_PIXELS,
  };
  const cleaned = await inWorker(config, "cleanPhotoWithThumbnail", photo, CHECKLIST_THUMBNAIL_PIXELS, caps);
  return cleaned.ok ? checklistPdfImage(cleaned.thumbnail, photo.fileName) : undefined;
}
