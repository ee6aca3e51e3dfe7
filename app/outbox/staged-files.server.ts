import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, inArray, isNull, lt } from "drizzle-orm";
import { from as copyFrom } from "pg-copy-streams";
import type { Database } from "~/services/db/database.server";
import { submissionFiles } from "~/services/db/schema.server";
import type { SubmittedFile } from "./submission-store.server";

/**
 * A file that no submission took is deleted once it is this old: a staged file (a post that staged its photos
 * and then failed, or a server stopped between the two), and an upload's raw bytes and cleaned copy
 * (resumable-uploads.server.ts). With the hourly sweep, within a day.
 */
export const ABANDONED_FILE_AGE_MS = 23 * 60 * 60 * 1000;

/** A file's bytes and what is known of them, as a row of submission_files holds them. */
export function fileContentColumns(file: SubmittedFile) {
  return {
    fieldName: file.fieldName,
    contentType: file.contentType,
    sizeBytes: file.content.byteLength,
    sha256: file.sha256 ?? createHash("sha256").update(file.content).digest("hex"),
    content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
  };
}

const COPY_SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
const int32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};
const int64 = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
};
const field = (bytes: Buffer) => [int32(bytes.length), bytes];

/**
 * A file's bytes handed to the COPY in pieces of this size: pg-copy-streams copies each piece it is given into a
 * message of its own, so a photo given whole was one copy of megabytes on the thread that answers pages.
 */
const COPY_PIECE_BYTES = 64 * 1024;

function* inPieces(bytes: Buffer) {
  for (let start = 0; start < bytes.byteLength; start += COPY_PIECE_BYTES) {
    yield bytes.subarray(start, start + COPY_PIECE_BYTES);
  }
}

/**
 * Stores one file as a staged row; its id. A binary COPY hands the file's bytes to the socket as they are: an
 * INSERT's parameters are copied twice into the statement's message (pg builds it whole), which for a photo of a
 * few megabytes is that much more memory held while the next photos are decoded.
 */
async function copyStagedFile(db: Database, file: SubmittedFile): Promise<number> {
  const { fieldName, contentType, sizeBytes, sha256, content } = fileContentColumns(file);
  const client = await db.$client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      "SELECT nextval(pg_get_serial_sequence('submission_files', 'id')) AS id",
    );
    const id = BigInt(rows[0]?.id ?? Number.NaN);
    const row = [
      COPY_SIGNATURE,
      int32(0),
      int32(0),
      int16(7),
      int32(8),
      int64(id),
      ...[fieldName, file.fileName, contentType].flatMap((text) => field(Buffer.from(text, "utf8"))),
      int32(4),
      int32(sizeBytes),
      ...field(Buffer.from(sha256, "utf8")),
      int32(content.byteLength),
      ...inPieces(content),
      int16(-1),
    ];
    await pipeline(
      Readable.from(row),
      client.query(
        copyFrom(
          "COPY submission_files (id, field_name, file_name, content_type, size_bytes, sha256, content) FROM STDIN (FORMAT binary)",
        ),
      ),
    );
    client.release();
    return Number(id);
  } catch (error) {
    // A connection whose COPY broke off is not given back to the pool.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
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
        this.#ids.set(file, await copyStagedFile(this.#db, file));
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

/** Deletes the staged files older than ABANDONED_FILE_AGE_MS before `now`; how many. */
export async function deleteAbandonedStagedFiles(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(submissionFiles)
    .where(
      and(
        isNull(submissionFiles.submissionId),
        lt(submissionFiles.createdAt, new Date(now.getTime() - ABANDONED_FILE_AGE_MS)),
      ),
    )
    .returning({ id: submissionFiles.id });
  return deleted.length;
}
