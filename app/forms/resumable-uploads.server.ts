import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ABANDONED_FILE_AGE_MS } from "~/outbox/staged-files.server";
import type { Thumbnail } from "~/server/photos/clean-photo.server";
import type { PreparedFile, UploadProblem } from "./photos.server";

/** Uploads under way and the cleaned copies of those complete live here until a post takes them. */
export const resumableUploadsDirectory = (dataDir: string) => path.join(dataDir, "uploads");

/**
 * What a complete upload became: who sent it for which form's field, and its cleaned photo (its type, pixels and
 * thumbnail's size) or why there is none.
 */
export type CleanedUpload = { ownerId: number; formType: string; fieldName: string; fileName: string } & (
  | { contentType: string; pixels: number; thumbnail?: { width: number; height: number } }
  | { problem: string }
);

/** A cleaned upload's files: the photo and, where its form's document prints one, its thumbnail. */
export type CleanedUploadFiles = { content: Uint8Array; thumbnail: Thumbnail | undefined };

// The upload store's own names (@tus/server's default: 16 random bytes in hex), so that no posted id is a path.
const UPLOAD_ID = /^[0-9a-f]{32}$/;

const cleanedFile = (directory: string, id: string) => path.join(directory, `${id}.cleaned`);
const thumbnailFile = (directory: string, id: string) => path.join(directory, `${id}.thumbnail`);
const cleanedRecord = (directory: string, id: string) => path.join(directory, `${id}.cleaned.json`);

/** Keeps the cleaned copy of a complete upload and its thumbnail; the record, written last, says it is ready. */
export async function keepCleanedUpload(
  directory: string,
  id: string,
  record: CleanedUpload,
  files: CleanedUploadFiles | undefined,
): Promise<void> {
  if (files) {
    await writeFile(cleanedFile(directory, id), files.content);
    if (files.thumbnail) await writeFile(thumbnailFile(directory, id), files.thumbnail.jpeg);
  }
  await writeFile(cleanedRecord(directory, id), JSON.stringify(record));
}

/** Who an upload is for, as a post names it. */
export type UploadClaim = { ownerId: number; formType: string; fieldName: string };

/**
 * The uploads a post took: their cleaned files, the problems of those that had none, and their ids; and the
 * ids it named that are not there for it (deleted after a day, never complete, kept by another app instance,
 * or sent by someone else or for another form), which are left alone.
 */
export type TakenUploads = { files: PreparedFile[]; problems: UploadProblem[]; ids: string[]; missing: string[] };

/** The uploads a post names add up to more than its form's whole body may (they are not read past it). */
export class UploadsOverCap extends Error {
  constructor() {
    super("the uploads a post names are over its form's cap");
  }
}

/**
 * The cleaned files of the uploads a post names, in its order, as if they had come in its body; past
 * `budgetBytes` in all, UploadsOverCap is thrown.
 */
export async function takeCleanedUploads(
  directory: string,
  ids: readonly string[],
  claim: UploadClaim,
  budgetBytes: number,
): Promise<TakenUploads> {
  const taken: TakenUploads = { files: [], problems: [], ids: [], missing: [] };
  let bytes = 0;
  for (const id of ids) {
    const record = UPLOAD_ID.test(id) ? await readRecord(directory, id) : undefined;
    const claimed =
      record?.ownerId === claim.ownerId && record.formType === claim.formType && record.fieldName === claim.fieldName;
    if (!record || !claimed) {
      taken.missing.push(id);
      continue;
    }
    taken.ids.push(id);
    if ("problem" in record) {
      taken.problems.push({ fieldName: record.fieldName, fileName: record.fileName, reason: record.problem });
    } else {
      bytes += (await stat(cleanedFile(directory, id))).size;
      if (bytes > budgetBytes) throw new UploadsOverCap();
      taken.files.push({
        fieldName: record.fieldName,
        fileName: record.fileName,
        contentType: record.contentType,
        content: new Uint8Array(await readFile(cleanedFile(directory, id))),
        uploaded: true,
        photo: {
          thumbnail: record.thumbnail && {
            jpeg: new Uint8Array(await readFile(thumbnailFile(directory, id))),
            ...record.thumbnail,
          },
          pixels: record.pixels,
        },
      });
    }
  }
  return taken;
}

async function readRecord(directory: string, id: string): Promise<CleanedUpload | undefined> {
  try {
    return JSON.parse(await readFile(cleanedRecord(directory, id), "utf8")) as CleanedUpload;
  } catch {
    return undefined;
  }
}

/** Deletes uploads and everything kept of them: the upload store's bytes and record, and the cleaned copy. */
export async function deleteUploads(directory: string, ids: readonly string[]): Promise<void> {
  const names = new Set(ids.filter((id) => UPLOAD_ID.test(id)));
  if (names.size === 0) return;
  const entries = await readdir(directory).catch(() => []);
  await Promise.all(
    entries.filter((entry) => names.has(uploadIdOf(entry))).map((entry) => rm(path.join(directory, entry))),
  );
}

const uploadIdOf = (entry: string) => entry.split(".")[0] ?? entry;

/**
 * Deletes every upload whose files were all last written more than ABANDONED_FILE_AGE_MS before `now`: one no
 * post took. Returns how many.
 */
export async function deleteAbandonedUploads(directory: string, now = Date.now()): Promise<number> {
  const entries = await readdir(directory).catch(() => []);
  const lastWritten = new Map<string, number>();
  for (const entry of entries) {
    // An entry deleted meanwhile (its post took it) is simply gone.
    const written = (await stat(path.join(directory, entry)).catch(() => undefined))?.mtimeMs;
    if (written === undefined) continue;
    const id = uploadIdOf(entry);
    lastWritten.set(id, Math.max(written, lastWritten.get(id) ?? 0));
  }
  const abandoned = [...lastWritten].filter(([, written]) => now - written > ABANDONED_FILE_AGE_MS);
  await deleteUploads(
    directory,
    abandoned.map(([id]) => id),
  );
  return abandoned.length;
}
