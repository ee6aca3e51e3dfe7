import type { SubmittedFile } from "~/outbox/submission-store.server";
import type { Config } from "~/services/config.server";
import {
  overSubmissionPixelsReason,
  type PhotoFile,
  photoWorkTasks,
  type Thumbnail,
} from "~/services/photos/clean-photo.server";
import { movingToWorker } from "~/services/work-pool/work-pool.server";
import type { LeftOutFile } from "./action-result";
import type { FileRule } from "./definition";

/** A photo left out of its submission, and why. */
export type UploadProblem = LeftOutFile;

/** A stored file as a form's document gets it: a photo comes with its pixels, and its thumbnail if it has one. */
export type PreparedFile = SubmittedFile & { photo?: { thumbnail: Thumbnail | undefined; pixels: number } };

/** The uploads as they are stored, and those that could not be prepared and are not, with why. */
export type PreparedUploads = { files: PreparedFile[]; problems: UploadProblem[] };

/** A rule of a photo field. */
export type PhotoRule = FileRule & Required<Pick<FileRule, "photos">>;

export const isPhotoRule = (rule: FileRule): rule is PhotoRule => rule.photos !== undefined;

/** A photo of a post: its bytes (an upload's, read from the database), or where the body reader wrote them. */
export type PostedPhoto = Pick<SubmittedFile, "fieldName" | "fileName" | "contentType" | "uploaded"> &
  ({ content: Uint8Array } | { path: string });

/**
 * One photo cleaned in the work pool with its thumbnail (where its rule asks for one), within PHOTO_MAX_PIXELS (and what is left of its
 * submission's pixels, when it is known). Its bytes are moved to the worker, or read there from their file: the
 * caller must not read them again. The cleaned file comes with its SHA-256, taken in the worker.
 */
export async function cleanPhotoInPool(
  config: Config,
  rule: PhotoRule,
  photo: PostedPhoto,
  submissionPixelsLeft = Number.POSITIVE_INFINITY,
) {
  const { fieldName, uploaded, fileName, contentType } = photo;
  const sent: PhotoFile =
    "content" in photo
      ? { fileName, contentType, content: photo.content }
      : { fileName, contentType, path: photo.path };
  const cleaned = await movingToWorker(
    config,
    sent.content ? [sent.content] : [],
    photoWorkTasks.cleanPhotoWithThumbnail,
    sent,
    rule.photos.thumbnail,
    {
      photoPixels: config.PHOTO_MAX_PIXELS,
      submissionPixels: config.SUBMISSION_MAX_PIXELS,
      submissionPixelsLeft,
    },
  );
  return cleaned.ok ? { ...cleaned, file: { fieldName, uploaded, ...cleaned.file } } : cleaned;
}

/**
 * A post's photos, each cleaned with its thumbnail in the work pool, as many at once as there are workers, in
 * their order; one that cannot be cleaned is a problem, with why. `pixelsUsed` are the pixels of the photos that
 * went up before: a photo that starts when the submission's pixels are spent is refused before it is decoded.
 * `onCleaned` gets each cleaned photo, the same object the result holds, as soon as it and those before it are
 * ready: in their order, so that what it stores keeps it.
 */
export async function cleanPostedPhotos(
  config: Config,
  rule: PhotoRule,
  photos: PostedPhoto[],
  pixelsUsed: number,
  onCleaned: (file: PreparedFile) => void = () => {},
): Promise<PreparedUploads> {
  const results: Array<{ file: PreparedFile } | { problem: UploadProblem }> = [];
  let used = pixelsUsed;
  let next = 0;
  let reported = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < photos.length) {
      const index = next++;
      const sent = photos[index] as PostedPhoto;
      try {
        const cleaned = await cleanPhotoInPool(config, rule, sent, config.SUBMISSION_MAX_PIXELS - used);
        if (cleaned.ok) {
          used += cleaned.pixels;
          const file = { ...cleaned.file, photo: { thumbnail: cleaned.thumbnail, pixels: cleaned.pixels } };
          results[index] = { file };
        } else {
          results[index] = { problem: { fieldName: sent.fieldName, fileName: sent.fileName, reason: cleaned.reason } };
        }
        for (let ready = results[reported]; ready; ready = results[++reported]) {
          if ("file" in ready) onCleaned(ready.file);
        }
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.PHOTO_WORKERS, photos.length) }, lane));
  return {
    files: results.flatMap((result) => ("file" in result ? [result.file] : [])),
    problems: results.flatMap((result) => ("problem" in result ? [result.problem] : [])),
  };
}

/**
 * The photos, in their order, while their pixels fit within SUBMISSION_MAX_PIXELS together; each one past it is
 * left out with why, as are the photos that went up before it once they had used it up. Files that are not
 * photos are kept.
 */
export function withinSubmissionPixels(config: Config, prepared: PreparedUploads): PreparedUploads {
  const kept: PreparedUploads = { files: [], problems: [...prepared.problems] };
  let used = 0;
  for (const file of prepared.files) {
    const pixels = file.photo?.pixels ?? 0;
    if (used + pixels > config.SUBMISSION_MAX_PIXELS) {
      kept.problems.push({
        fieldName: file.fieldName,
        fileName: file.fileName,
        reason: overSubmissionPixelsReason(config.SUBMISSION_MAX_PIXELS),
      });
    } else {
      used += pixels;
      kept.files.push(file);
    }
  }
  return kept;
}
