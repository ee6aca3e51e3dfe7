import { createHash } from "node:crypto";
import { and, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { submissionFiles } from "~/server/db/schema.server";
import type { SubmittedFile } from "./submission-store.server";

/**
 * A staged file no submission adopted is deleted once it is this old: a post that stages its photos and then
 * fails, or a server stopped between the two, leaves it behind. With the hourly sweep, within a day.
 */
export const ABANDONED_STAGED_FILE_AGE_MS = 23 * 60 * 60 * 1000;

/** A file's bytes and what is known of them, as a row of submission_files holds them. */
export function fileContentColumns(file: SubmittedFile) {
  return {
    fieldName: file.fieldName,
    contentType: file.contentType,
    sizeBytes: file.content.byteLength,
    sha256: createHash("sha256").update(file.content).digest("hex"),
    content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
  };
}

/**
 * A post's files stored as each is ready, one short statement each, one after the other, while the rest of the
 * post is still prepared: PostgreSQL then writes a photo's megabytes while the next photo is cleaned, and the
 * submission's transaction only adopts the rows. No connection is held while a photo is cleaned.
 */
export class FileStaging {
  readonly #db: Database;
  #queue: Promise<void> = Promise.resolve();
  readonly #ids = new Map<SubmittedFile, number>();
  #failure: { error: unknown } | undefined;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Stores the file's bytes after those staged before it. A failure is kept for `staged` to throw. */
  stage(file: SubmittedFile): void {
    this.#queue = this.#queue.then(async () => {
      if (this.#failure) return;
      try {
        const [row] = await this.#db
          .insert(submissionFiles)
          .values({ submissionId: null, fileName: file.fileName, ...fileContentColumns(file) })
          .returning({ id: submissionFiles.id });
        if (row) this.#ids.set(file, row.id);
      } catch (error) {
        this.#failure = { error };
      }
    });
  }

  /** The files, each with the id of its staged row when it has one, once every file staged so far is stored. */
  async staged<File extends SubmittedFile>(files: File[]): Promise<File[]> {
    await this.#queue;
    if (this.#failure) throw this.#failure.error;
    return files.map((file) => {
      const stagedId = this.#ids.get(file);
      return stagedId === undefined ? file : { ...file, stagedId };
    });
  }

  /** Deletes what this post staged and no submission adopted: it was refused, failed, or was stored before. */
  async discardUnadopted(): Promise<void> {
    await this.#queue;
    const ids = [...this.#ids.values()];
    if (ids.length === 0) return;
    await this.#db
      .delete(submissionFiles)
      .where(and(inArray(submissionFiles.id, ids), isNull(submissionFiles.submissionId)));
  }
}

/** Deletes the staged files older than ABANDONED_STAGED_FILE_AGE_MS before `now`; how many. */
export async function deleteAbandonedStagedFiles(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(submissionFiles)
    .where(
      and(
        isNull(submissionFiles.submissionId),
        lt(submissionFiles.createdAt, new Date(now.getTime() - ABANDONED_STAGED_FILE_AGE_MS)),
      ),
    )
    .returning({ id: submissionFiles.id });
  return deleted.length;
}
