import { asc, eq, inArray, lt, sql } from "drizzle-orm";
import { ABANDONED_FILE_AGE_MS } from "~/outbox/staged-files.server";
import { type Database, inTransaction } from "~/services/db/database.server";
import { resumableUploadChunks, resumableUploads } from "~/services/db/schema.server";
import type { Thumbnail } from "~/services/photos/clean-photo.server";
import type { PreparedFile, UploadProblem } from "./photos.server";

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

// The upload store's own names (@tus/server's default: 16 random bytes in hex).
const UPLOAD_ID = /^[0-9a-f]{32}$/;

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The bytes an upload received, in order: what its last PATCH completed. */
export async function receivedBytes(db: Database, id: string): Promise<Uint8Array> {
  const parts = await db
    .select({ content: resumableUploadChunks.content })
    .from(resumableUploadChunks)
    .where(eq(resumableUploadChunks.uploadId, id))
    .orderBy(asc(resumableUploadChunks.startByte));
  return new Uint8Array(Buffer.concat(parts.map((part) => part.content)));
}

/**
 * Keeps what a complete upload became, in place of its received bytes (only the cleaned copy is ever read
 * again): the record says it is ready.
 */
export async function keepCleanedUpload(
  db: Database,
  id: string,
  record: CleanedUpload,
  files: CleanedUploadFiles | undefined,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx
      .update(resumableUploads)
      .set({
        cleaned: record,
        cleanedContent: files && asBuffer(files.content),
        thumbnail: files?.thumbnail && asBuffer(files.thumbnail.jpeg),
        writtenAt: new Date(),
      })
      .where(eq(resumableUploads.id, id));
    await tx.delete(resumableUploadChunks).where(eq(resumableUploadChunks.uploadId, id));
  });
}

/** Who an upload is for, as a post names it. */
export type UploadClaim = { ownerId: number; formType: string; fieldName: string };

/**
 * The uploads a post took: their cleaned files, the problems of those that had none, and their ids; and the
 * ids it named that are not there for it (deleted after a day, never complete, or sent by someone else or for
 * another form), which are left alone.
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
 * `budgetBytes` in all, UploadsOverCap is thrown before the one past it is read.
 */
export async function takeCleanedUploads(
  db: Database,
  ids: readonly string[],
  claim: UploadClaim,
  budgetBytes: number,
): Promise<TakenUploads> {
  const taken: TakenUploads = { files: [], problems: [], ids: [], missing: [] };
  const wellFormed = ids.filter((id) => UPLOAD_ID.test(id));
  const rows =
    wellFormed.length === 0
      ? []
      : await db
          .select({
            id: resumableUploads.id,
            ownerId: resumableUploads.ownerId,
            cleaned: resumableUploads.cleaned,
            cleanedBytes: sql<number | null>`octet_length(${resumableUploads.cleanedContent})`.mapWith(Number),
          })
          .from(resumableUploads)
          .where(inArray(resumableUploads.id, wellFormed));
  const byId = new Map(rows.map((row) => [row.id, row]));
  let bytes = 0;
  for (const id of ids) {
    const row = byId.get(id);
    const record = row?.cleaned as CleanedUpload | null | undefined;
    const claimed =
      row?.ownerId === claim.ownerId && record?.formType === claim.formType && record.fieldName === claim.fieldName;
    if (!row || !record || !claimed) {
      taken.missing.push(id);
      continue;
    }
    taken.ids.push(id);
    if ("problem" in record) {
      taken.problems.push({ fieldName: record.fieldName, fileName: record.fileName, reason: record.problem });
      continue;
    }
    bytes += row.cleanedBytes ?? 0;
    if (bytes > budgetBytes) throw new UploadsOverCap();
    const [files] = await db
      .select({ content: resumableUploads.cleanedContent, thumbnail: resumableUploads.thumbnail })
      .from(resumableUploads)
      .where(eq(resumableUploads.id, id));
    taken.files.push({
      fieldName: record.fieldName,
      fileName: record.fileName,
      contentType: record.contentType,
      content: new Uint8Array(files?.content ?? []),
      uploaded: true,
      photo: {
        thumbnail:
          record.thumbnail && files?.thumbnail
            ? { jpeg: new Uint8Array(files.thumbnail), ...record.thumbnail }
            : undefined,
        pixels: record.pixels,
      },
    });
  }
  return taken;
}

/** Deletes uploads and everything kept of them: their received bytes and their cleaned copy. */
export async function deleteUploads(db: Database, ids: readonly string[]): Promise<void> {
  const wellFormed = ids.filter((id) => UPLOAD_ID.test(id));
  if (wellFormed.length === 0) return;
  await db.delete(resumableUploads).where(inArray(resumableUploads.id, wellFormed));
}

/**
 * Deletes every upload last written (a byte received, or cleaned) more than ABANDONED_FILE_AGE_MS before `now`:
 * one no post took. Returns how many.
 */
export async function deleteAbandonedUploads(db: Database, now = Date.now()): Promise<number> {
  const deleted = await db
    .delete(resumableUploads)
    .where(lt(resumableUploads.writtenAt, new Date(now - ABANDONED_FILE_AGE_MS)))
    .returning({ id: resumableUploads.id });
  return deleted.length;
}
