import type { Readable } from "node:stream";
import { DataStore, ERRORS, Upload } from "@tus/server";
import { eq, sql } from "drizzle-orm";
import { type Database, inTransaction } from "../app/services/db/database.server";
import { resumableUploadChunks, resumableUploads } from "../app/services/db/schema.server";

/**
 * A PATCH's bytes are stored a part at a time, each part in one statement, as they arrive: a cut connection
 * keeps every byte received, in the database every instance reads, and a part is at most this much memory.
 */
const PART_BYTES = 1024 * 1024;

/** The first key of the advisory lock that counts one person's uploads (the second is the person). */
const OWNER_COUNT_LOCK = 0x7475_7301;

/** A new upload would take its owner's uploads past UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON. */
export class UnfinishedUploadsOverCap extends Error {
  constructor() {
    super("the person's unfinished uploads would be over their cap");
  }
}

type PostgresUploadStoreOptions = { db: Database; maxUnfinishedBytesPerOwner: number };

/**
 * The tus upload store in PostgreSQL, which every app instance shares: an upload begun on one instance is
 * continued (HEAD, PATCH) on any other, and the post that takes it may go to any. Written by hand: the tus
 * project's stores are a file system, S3, GCS and Azure, none of which this app has shared between instances.
 * Concurrent PATCHes of one upload on two instances cannot interleave: a part is appended only where the bytes
 * received end, in the same statement that moves that end (otherwise 409, and tus-js-client asks HEAD again).
 * The upload's owner is `metadata.ownerId`, set by the endpoint's onUploadCreate.
 */
export class PostgresUploadStore extends DataStore {
  readonly #db: Database;
  readonly #maxUnfinishedBytesPerOwner: number;

  constructor({ db, maxUnfinishedBytesPerOwner }: PostgresUploadStoreOptions) {
    super();
    this.extensions = ["creation", "creation-with-upload", "termination"];
    this.#db = db;
    this.#maxUnfinishedBytesPerOwner = maxUnfinishedBytesPerOwner;
  }

  /**
   * Records the upload, counted with its owner's others (under way, or up and not yet taken by a post) by their
   * declared lengths; past the cap, UnfinishedUploadsOverCap and nothing is recorded. A person's photos are
   * created side by side, on any instance: the count is taken under a lock of theirs.
   */
  override async create(upload: Upload): Promise<Upload> {
    const ownerId = Number(upload.metadata?.ownerId);
    const size = upload.size ?? 0;
    const createdAt = await inTransaction(this.#db, async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${OWNER_COUNT_LOCK}::int, ${ownerId}::int)`);
      const { rows } = await tx.execute<{ created_at: Date }>(sql`
        INSERT INTO ${resumableUploads} (id, owner_id, size_bytes, metadata)
        SELECT ${upload.id}, ${ownerId}, ${size}, ${JSON.stringify(upload.metadata ?? {})}::jsonb
        WHERE (SELECT coalesce(sum(size_bytes), 0) FROM ${resumableUploads} WHERE owner_id = ${ownerId}) + ${size}
          <= ${this.#maxUnfinishedBytesPerOwner}
        RETURNING created_at`);
      return rows[0]?.created_at;
    });
    if (createdAt === undefined) throw new UnfinishedUploadsOverCap();
    upload.creation_date = new Date(createdAt).toISOString();
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const [row] = await this.#db
      .select({
        size: resumableUploads.sizeBytes,
        offset: resumableUploads.receivedBytes,
        metadata: resumableUploads.metadata,
        createdAt: resumableUploads.createdAt,
      })
      .from(resumableUploads)
      .where(eq(resumableUploads.id, id));
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({ id, ...row, creation_date: row.createdAt.toISOString() });
  }

  /** Appends the stream's bytes at `offset`, a part at a time; whatever arrived is kept when the stream breaks off. */
  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    let end = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const part = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.#appendPart(id, end, part);
      end += part.byteLength;
    };
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        if (pendingBytes >= PART_BYTES) await flush();
      }
    } finally {
      await flush();
    }
    return end;
  }

  async #appendPart(id: string, start: number, part: Buffer): Promise<void> {
    const { rowCount } = await this.#db.execute(sql`
      WITH moved AS (
        UPDATE ${resumableUploads}
        SET received_bytes = received_bytes + ${part.byteLength}, written_at = now()
        WHERE id = ${id} AND received_bytes = ${start} AND received_bytes + ${part.byteLength} <= size_bytes
        RETURNING id
      )
      INSERT INTO ${resumableUploadChunks} (upload_id, start_byte, content)
      SELECT id, ${start}, ${part} FROM moved`);
    if (rowCount !== 1) throw ERRORS.INVALID_OFFSET;
  }

  override async remove(id: string): Promise<void> {
    const deleted = await this.#db
      .delete(resumableUploads)
      .where(eq(resumableUploads.id, id))
      .returning({ id: resumableUploads.id });
    if (deleted.length === 0) throw ERRORS.FILE_NOT_FOUND;
  }
}
