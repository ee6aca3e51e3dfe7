import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, type FileHandle, mkdir, mkdtemp, open, readdir, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { APP_CONNECTION_NAME } from "../db/database.server";
import { type BackupKey, isSealedStart, openSealedFile, SealedFileError, sealStream } from "./backup-encryption.server";

/**
 * A backup is one file, written through the server itself (decision 0801: the embedded server is
 * PostgreSQL 18 and no pg_dump 18 can be installed here):
 *
 *   TRI-COUNTY-ELECTRIC BACKUP 1\n
 *   <manifest as one line of JSON>\n
 *   for each table of the manifest, in its order: frames of [uint32 length][COPY binary bytes], then [uint32 0]
 *   END <SHA-256 in hex of every byte before this line>\n
 *
 * Every table is copied inside one REPEATABLE READ READ ONLY transaction, so the file is one consistent
 * snapshot however many posts arrive meanwhile. The files (resumes, photos, PDFs) are rows like any other.
 *
 * The file on disk is that sealed with BACKUP_ENCRYPTION_KEY (backup-encryption.server.ts); a file of the format
 * itself, unsealed, is a backup from before backups were sealed, restored only when asked for (`--plain`).
 */
const MAGIC = "TRI-COUNTY-ELECTRIC BACKUP 1\n";
const TRAILER_LENGTH = "END \n".length + 64;
const BACKED_UP_SCHEMAS = ["public", "drizzle"];
const MIGRATIONS_TABLE = { schema: "drizzle", name: "__drizzle_migrations" };

const BACKUP_FILE_PREFIX = "tri-county-electric-";
const BACKUP_FILE_EXTENSION = ".backup";
/** What a backup is written as until it is whole; one a killed run left is swept (removeLeftPartials). */
const PARTIAL_SUFFIX = ".partial";

type TableManifest = { schema: string; name: string; columns: string[]; rows: number };
type SequenceManifest = { schema: string; name: string; lastValue: string | null };
type MigrationManifest = { hash: string; createdAt: string };

export type BackupManifest = {
  createdAt: string;
  postgresVersion: string;
  migrations: MigrationManifest[];
  /** In an order where every table comes after the tables its foreign keys point to. */
  tables: TableManifest[];
  sequences: SequenceManifest[];
};

export type WrittenBackup = { file: string; bytes: number; sha256: string; manifest: BackupManifest };

/** A file that is not a whole, unaltered backup of this app; restore says why in one line and stops. */
export class BackupFileError extends Error {
  override name = "BackupFileError";
}

/** A restore that would do harm (data in the target without --force, an app running on it). */
export class RestoreRefusal extends Error {
  override name = "RestoreRefusal";
}

const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (table: { schema: string; name: string }) => `${identifier(table.schema)}.${identifier(table.name)}`;
const columnList = (table: TableManifest) => table.columns.map(identifier).join(", ");

/**
 * `tri-county-electric-20261125T193000.123Z.backup`: sorts by time, says what it is when copied elsewhere, and
 * the milliseconds keep a backup by hand and a scheduled one in the same second apart.
 */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replaceAll(/[-:]/g, "");
  return `${BACKUP_FILE_PREFIX}${stamp}${BACKUP_FILE_EXTENSION}`;
}

export const isBackupFileName = (name: string) =>
  name.startsWith(BACKUP_FILE_PREFIX) && name.endsWith(BACKUP_FILE_EXTENSION);

/** The backups of `directory`, newest first (their names sort by time); none when it does not exist. */
export async function listBackups(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return names.filter(isBackupFileName).sort().reverse();
}

/**
 * Deletes the `*.backup.partial` files a killed backup left in `directory`, and resolves with their names. Only
 * safe while no backup of the same database is being written there: the caller holds the backup lock.
 */
export async function removeLeftPartials(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => []);
  const partials = names.filter((name) => name.startsWith(BACKUP_FILE_PREFIX) && name.endsWith(PARTIAL_SUFFIX));
  for (const name of partials) await rm(path.join(directory, name), { force: true });
  return partials;
}

/**
 * Writes a backup of the database `pool` reaches into `directory` (made 0700 if missing), sealed with `key`, as a
 * file only its owner can read. It is written under a temporary name and renamed once complete, so a file with the
 * backup name is always whole. `bytes` and `sha256` are the sealed file's, as `ls` and `sha256sum` show them.
 */
export async function writeBackup(
  pool: pg.Pool,
  directory: string,
  key: BackupKey,
  at = new Date(),
): Promise<WrittenBackup> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const file = path.resolve(directory, backupFileName(at));
  const partial = `${file}${PARTIAL_SUFFIX}`;
  const client = await pool.connect();
  const sealer = sealStream(key);
  const sealedHash = createHash("sha256");
  let sealedBytes = 0;
  const counted = new PassThrough().on("data", (chunk: Buffer) => {
    sealedHash.update(chunk);
    sealedBytes += chunk.length;
  });
  let written: Promise<void> | undefined;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const manifest = await readManifest(client, at);
    written = pipeline(sealer, counted, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    const hash = createHash("sha256");
    const write = async (chunk: Buffer) => {
      hash.update(chunk);
      if (!sealer.write(chunk)) await once(sealer, "drain");
    };
    await write(Buffer.from(`${MAGIC}${JSON.stringify(manifest)}\n`));
    for (const table of manifest.tables) {
      const stream = client.query(copyTo(`COPY ${qualified(table)} (${columnList(table)}) TO STDOUT (FORMAT binary)`));
      for await (const chunk of stream as AsyncIterable<Buffer>)
        await write(Buffer.concat([frameLength(chunk.length), chunk]));
      await write(frameLength(0));
    }
    await client.query("COMMIT");
    sealer.end(Buffer.from(`END ${hash.digest("hex")}\n`));
    await written;
    const output = await open(partial, "r+");
    await output.sync().finally(() => output.close());
    await chmod(partial, 0o600);
    await rename(partial, file);
    return { file, bytes: sealedBytes, sha256: sealedHash.digest("hex"), manifest };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    sealer.destroy();
    await written?.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  } finally {
    client.release();
  }
}

function frameLength(length: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(length);
  return buffer;
}

async function readManifest(client: pg.PoolClient, at: Date): Promise<BackupManifest> {
  const version = await client.query<{ server_version: string }>("SHOW server_version");
  const tables = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind = 'r' AND n.nspname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
      GROUP BY n.nspname, c.relname`,
    [BACKED_UP_SCHEMAS],
  );
  const references = await client.query<{ from_schema: string; from_name: string; to_schema: string; to_name: string }>(
    `SELECT fn.nspname AS from_schema, f.relname AS from_name, tn.nspname AS to_schema, t.relname AS to_name
       FROM pg_constraint k
       JOIN pg_class f ON f.oid = k.conrelid JOIN pg_namespace fn ON fn.oid = f.relnamespace
       JOIN pg_class t ON t.oid = k.confrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
      WHERE k.contype = 'f' AND k.conrelid <> k.confrelid`,
  );
  const ordered = inReferenceOrder(
    tables.rows.map((table) => ({ ...table, rows: 0 })),
    references.rows.map((row) => ({
      from: `${row.from_schema}.${row.from_name}`,
      to: `${row.to_schema}.${row.to_name}`,
    })),
  );
  for (const table of ordered) {
    const count = await client.query<{ rows: string }>(`SELECT count(*) AS rows FROM ${qualified(table)}`);
    table.rows = Number(count.rows[0]?.rows ?? 0);
  }
  const hasMigrations = ordered.some((table) => table.schema === MIGRATIONS_TABLE.schema);
  const migrations = hasMigrations
    ? await client.query<{ hash: string; created_at: string }>(
        `SELECT hash, created_at::text FROM ${qualified(MIGRATIONS_TABLE)} ORDER BY created_at, id`,
      )
    : { rows: [] };
  const sequences = await client.query<{ schema: string; name: string; last_value: string | null }>(
    "SELECT schemaname AS schema, sequencename AS name, last_value::text FROM pg_sequences WHERE schemaname = ANY($1)",
    [BACKED_UP_SCHEMAS],
  );
  return {
    createdAt: at.toISOString(),
    postgresVersion: version.rows[0]?.server_version ?? "unknown",
    migrations: migrations.rows.map((row) => ({ hash: row.hash, createdAt: row.created_at })),
    tables: ordered,
    sequences: sequences.rows.map((row) => ({ schema: row.schema, name: row.name, lastValue: row.last_value })),
  };
}

/** Tables sorted so that each follows those it references (a table referring to itself is loaded in one COPY). */
function inReferenceOrder(tables: TableManifest[], references: { from: string; to: string }[]): TableManifest[] {
  const key = (table: TableManifest) => `${table.schema}.${table.name}`;
  const byKey = new Map(tables.map((table) => [key(table), table]));
  const ordered: TableManifest[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const reference of references) if (reference.from === name) place(reference.to);
    visiting.delete(name);
    const table = byKey.get(name);
    if (table) ordered.push(table);
    placed.add(name);
  };
  for (const name of [...byKey.keys()].sort()) place(name);
  return ordered;
}

/** How a backup file is opened: with the key that sealed it, and whether an unsealed one is taken (`--plain`). */
export type BackupOpening = { key: BackupKey | undefined; allowPlain: boolean };

export type OpenedBackup = {
  /** The backup in its own format, unsealed: a file of a private temporary folder, deleted after `use`. */
  plainFile: string;
  manifest: BackupManifest;
  /** False for a backup from before backups were sealed, taken because `allowPlain` said so. */
  sealed: boolean;
};

/**
 * Checks `file` whole before anything uses it: a sealed backup is opened with the key into a private temporary
 * folder (every chunk's check passed), then its content is checked as verifyPlainBackup does; only then is `use`
 * called with it. A file that fails any check throws a BackupFileError saying why in one line.
 */
export async function openBackup<T>(
  file: string,
  opening: BackupOpening,
  use: (opened: OpenedBackup) => Promise<T>,
): Promise<T> {
  const start = await readStart(file);
  if (!isSealedStart(start)) {
    if (start.subarray(0, MAGIC.length).toString("latin1") !== MAGIC)
      throw new BackupFileError(`${file} is not a backup of this app`);
    if (!opening.allowPlain) {
      throw new BackupFileError(
        `${file} is not sealed: it was written before backups were encrypted, or by someone without BACKUP_ENCRYPTION_KEY; if it is one of yours, add --plain to take it`,
      );
    }
    return use({ plainFile: file, manifest: await verifyPlainBackup(file), sealed: false });
  }
  if (!opening.key) {
    throw new BackupFileError(
      `${file} is sealed, and neither BACKUP_ENCRYPTION_KEY nor DATA_DIR's backup-encryption-key is there: set BACKUP_ENCRYPTION_KEY to the key it was sealed with`,
    );
  }
  const folder = await mkdtemp(path.join(tmpdir(), "tce-backup-opened-"));
  try {
    const plainFile = path.join(folder, path.basename(file));
    await openSealedFile(opening.key, file, plainFile).catch((error: unknown) => {
      throw error instanceof SealedFileError ? new BackupFileError(`${file} ${error.message}`) : error;
    });
    return await use({ plainFile, manifest: await verifyPlainBackup(plainFile, file), sealed: true });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Checks a backup file end to end without touching any database (openBackup); resolves with its manifest. */
export function verifyBackup(file: string, opening: BackupOpening): Promise<Omit<OpenedBackup, "plainFile">> {
  return openBackup(file, opening, async ({ manifest, sealed }) => ({ manifest, sealed }));
}

async function readStart(file: string): Promise<Buffer> {
  const handle = await open(file, "r").catch(() => {
    throw new BackupFileError(`${file} cannot be read`);
  });
  try {
    const start = Buffer.alloc(64);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    return start.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Checks a backup in its own format end to end: its first line, its checksum over every byte, its manifest and the
 * framing of every table. Resolves with the manifest, or throws BackupFileError naming the file as `shownAs`.
 */
async function verifyPlainBackup(file: string, shownAs = file): Promise<BackupManifest> {
  const size = await stat(file).then(
    (stats) => stats.size,
    () => {
      throw new BackupFileError(`${shownAs} cannot be read`);
    },
  );
  const handle = await open(file, "r");
  try {
    const start = await readAt(handle, 0, Math.min(size, MAGIC.length));
    if (start.toString("latin1") !== MAGIC) throw new BackupFileError(`${shownAs} is not a backup of this app`);
    if (size < MAGIC.length + TRAILER_LENGTH) throw new BackupFileError(`${shownAs} is truncated: it has no end line`);
    const trailer = (await readAt(handle, size - TRAILER_LENGTH, TRAILER_LENGTH)).toString("latin1");
    const expected = /^END ([0-9a-f]{64})\n$/.exec(trailer)?.[1];
    if (!expected) throw new BackupFileError(`${shownAs} is truncated: it has no end line`);
    const hash = createHash("sha256");
    await pipeline(createReadStream(file, { start: 0, end: size - TRAILER_LENGTH - 1 }), hash);
    if (hash.digest("hex") !== expected) {
      throw new BackupFileError(`${shownAs} is damaged: its checksum does not match its content`);
    }
    const reader = new FrameReader(handle, MAGIC.length, size - TRAILER_LENGTH);
    const manifest = await reader.manifest(shownAs);
    for (const _table of manifest.tables) await reader.skipTable();
    if (!reader.atEnd()) throw new BackupFileError(`${shownAs} has bytes after its last table`);
    return manifest;
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(`${shownAs} is not a readable backup: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new BackupFileError("the file ends early");
  return buffer;
}

/** Reads the manifest line and then each table's frames, in the order they were written. */
class FrameReader {
  constructor(
    private readonly handle: FileHandle,
    private position: number,
    private readonly end: number,
  ) {}

  async manifest(file: string): Promise<BackupManifest> {
    let line = "";
    while (!line.endsWith("\n")) {
      if (this.position >= this.end || line.length > 16 * 1024 * 1024) {
        throw new BackupFileError(`${file} has no manifest`);
      }
      const length = Math.min(64 * 1024, this.end - this.position);
      const chunk = (await readAt(this.handle, this.position, length)).toString("latin1");
      const newline = chunk.indexOf("\n");
      const taken = newline === -1 ? chunk : chunk.slice(0, newline + 1);
      line += taken;
      this.position += taken.length;
    }
    const manifest = JSON.parse(Buffer.from(line, "latin1").toString("utf8")) as BackupManifest;
    if (!Array.isArray(manifest.tables) || !Array.isArray(manifest.migrations) || !Array.isArray(manifest.sequences)) {
      throw new BackupFileError(`${file} has no valid manifest`);
    }
    return manifest;
  }

  async *frames(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.position + 4 > this.end) throw new BackupFileError("a table ends early");
      const length = (await readAt(this.handle, this.position, 4)).readUInt32BE(0);
      this.position += 4;
      if (length === 0) return;
      if (this.position + length > this.end) throw new BackupFileError("a table ends early");
      yield await readAt(this.handle, this.position, length);
      this.position += length;
    }
  }

  async skipTable(): Promise<void> {
    for (;;) {
      if (this.position + 4 > this.end) throw new BackupFileError("a table ends early");
      const length = (await readAt(this.handle, this.position, 4)).readUInt32BE(0);
      this.position += 4 + length;
      if (length === 0) return;
      if (this.position > this.end) throw new BackupFileError("a table ends early");
    }
  }

  atEnd(): boolean {
    return this.position === this.end;
  }
}

export type RestoreOptions = {
  /** Replace a database that holds data. */
  force: boolean;
  /** The checked-in migrations (drizzle/): the backup's must be the first of them. */
  migrationsFolder: string;
};

/**
 * Restores the backup `file`, as openBackup checked and opened it, into the database `client` is connected to.
 * Everything happens in one transaction (dropping what is there, creating the tables by the backup's migrations,
 * loading the rows, setting the sequences), so a restore that fails leaves the target as it was.
 */
export async function restoreBackup(
  client: pg.Client,
  file: string,
  { plainFile, manifest }: OpenedBackup,
  options: RestoreOptions,
): Promise<BackupManifest> {
  const migrations = readMigrationFiles({ migrationsFolder: options.migrationsFolder });
  manifest.migrations.forEach((migration, index) => {
    if (migrations[index]?.hash !== migration.hash) {
      throw new RestoreRefusal(
        `${file} was taken by another version of the app (its migration ${index + 1} is not drizzle/'s): restore it with the version that took it`,
      );
    }
  });
  await refuseWhileAppRuns(client);
  if (!options.force && (await holdsData(client))) {
    throw new RestoreRefusal("The target database holds data: add --force to replace it with the backup");
  }

  const handle = await open(plainFile, "r");
  const stats = await handle.stat();
  try {
    await client.query("BEGIN");
    for (const schema of BACKED_UP_SCHEMAS) await client.query(`DROP SCHEMA IF EXISTS ${identifier(schema)} CASCADE`);
    await client.query("CREATE SCHEMA public");
    // The table drizzle's migrator keeps (drizzle-orm/pg-core/dialect.js), filled from the backup below.
    await client.query("CREATE SCHEMA drizzle");
    await client.query(
      `CREATE TABLE ${qualified(MIGRATIONS_TABLE)} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    for (const migration of migrations.slice(0, manifest.migrations.length)) {
      for (const statement of migration.sql) if (statement.trim()) await client.query(statement);
    }
    const reader = new FrameReader(handle, MAGIC.length, stats.size - TRAILER_LENGTH);
    await reader.manifest(file);
    for (const table of manifest.tables) {
      const sink = client.query(copyFrom(`COPY ${qualified(table)} (${columnList(table)}) FROM STDIN (FORMAT binary)`));
      await pipeline(reader.frames(), sink);
    }
    for (const sequence of manifest.sequences) {
      if (sequence.lastValue === null) continue;
      await client.query("SELECT setval($1::regclass, $2::bigint, true)", [qualified(sequence), sequence.lastValue]);
    }
    await client.query("COMMIT");
    return manifest;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await handle.close();
  }
}

async function refuseWhileAppRuns(client: pg.Client): Promise<void> {
  const running = await client.query<{ pid: number; client_addr: string | null }>(
    `SELECT pid, client_addr::text FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
    [APP_CONNECTION_NAME],
  );
  if (running.rows.length > 0) {
    const from = [...new Set(running.rows.map((row) => row.client_addr ?? "local"))].join(", ");
    throw new RestoreRefusal(
      `An app is connected to the target database (from ${from}): stop every instance before restoring`,
    );
  }
}

async function holdsData(client: pg.Client): Promise<boolean> {
  const tables = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')`,
  );
  for (const table of tables.rows) {
    const found = await client.query(`SELECT 1 FROM ${qualified(table)} LIMIT 1`);
    if (found.rows.length > 0) return true;
  }
  return false;
}
