import { execFile } from "node:child_process";
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import {
  archivedWalSystemIdentifier,
  type BackupFolderConfig,
  claimBackupDir,
  clusterSystemIdentifier,
  databaseSystemIdentifier,
  ForeignBackupFolder,
} from "../backup/backup-folder-mark.server";
import type { Config } from "../config.server";

/**
 * A base backup is a copy of the embedded cluster's folder taken with PostgreSQL's low-level backup API
 * (pg_backup_start, copy, pg_backup_stop: the embedded package has no pg_basebackup, decision 0803), laid out as a
 * DATA_DIR, so a restore copies it into a fresh one:
 *
 *   BACKUP_DIR/base/base-<UTC time>/postgres/...            the cluster, with the backup_label pg_backup_stop gave
 *   BACKUP_DIR/base/base-<UTC time>/postgres-password       the passwords the cluster's roles have, to connect to it
 *   BACKUP_DIR/base/base-<UTC time>/postgres-app-password
 *   BACKUP_DIR/base/base-<UTC time>/base-backup.json        when it was taken, where its WAL starts, and the
 *                                                           cluster's system identifier
 *
 * With the WAL archived since its start (BACKUP_DIR/wal), it recovers to any moment after it finished.
 */
export const baseBackupsDirectory = (config: Pick<Config, "BACKUP_DIR">) => path.join(config.BACKUP_DIR, "base");
export const walArchiveDirectory = (config: Pick<Config, "BACKUP_DIR">) => path.join(config.BACKUP_DIR, "wal");

/** A base backup or restore that cannot or should not be done; the command prints it and exits 1, having changed nothing. */
export class PointInTimeRefusal extends Error {
  override name = "PointInTimeRefusal";
}

const BASE_PREFIX = "base-";
/** What a base backup says of itself; a copy of one is whole once this file is there, the last written. */
export const MANIFEST = "base-backup.json";
/** The DATA_DIR files the restored cluster needs beside it: its roles' passwords (the app resets its own at start). */
const PASSWORD_FILES = ["postgres-password", "postgres-app-password"];

export type BaseBackup = {
  directory: string;
  /** When pg_backup_start was called. */
  startedAt: Date;
  /** When pg_backup_stop returned: the earliest moment a restore from this backup can reach. */
  finishedAt: Date;
  /** The archived WAL segment the restore starts from; older segments are not needed by this backup. */
  startWalFile: string;
  /** The cluster's (pg_control_system()); a base backup from before it was written down has it in its pg_control. */
  systemIdentifier?: string;
};

/** The cluster a local base backup is of: its manifest says, else its copy of pg_control. */
export async function baseBackupSystemIdentifier(backup: BaseBackup): Promise<string | undefined> {
  return backup.systemIdentifier ?? (await clusterSystemIdentifier(path.join(backup.directory, "postgres")));
}

/**
 * Directories of the cluster whose contents a base backup leaves out, as PostgreSQL's documentation lists them
 * (Making a Base Backup Using the Low Level API): WAL comes from the archive, the rest is made again at start.
 */
const EMPTIED_DIRECTORIES = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
const LEFT_OUT_FILES = new Set(["postmaster.pid", "postmaster.opts", "pg_internal.init", "backup_label.old"]);

/**
 * Takes a base backup of the embedded cluster in DATA_DIR through `superuserUrl` into BACKUP_DIR/base, under a
 * `.partial` name renamed once whole, once BACKUP_DIR is found to be this cluster's (a folder of another refuses).
 * pg_backup_stop waits until the WAL the backup needs is archived, so a backup that is listed can be restored.
 * `signal` stops a copy under way (the app shutting down); nothing is left.
 */
export async function takeBaseBackup(options: {
  superuserUrl: string;
  config: BackupFolderConfig & Pick<Config, "DATA_DIR">;
  at?: Date;
  signal?: AbortSignal;
}): Promise<BaseBackup & { systemIdentifier: string }> {
  const at = options.at ?? new Date();
  const dataDir = options.config.DATA_DIR;
  const directory = baseBackupsDirectory(options.config);
  const target = path.join(directory, `${BASE_PREFIX}${at.toISOString().replaceAll(/[-:]/g, "")}`);
  const partial = `${target}.partial`;
  const client = new pg.Client({
    connectionString: options.superuserUrl,
    application_name: "tri-county-electric base backup",
  });
  await client.connect();
  let started = false;
  try {
    const systemIdentifier = await databaseSystemIdentifier(client);
    await claimBackupDir(options.config, systemIdentifier).catch((error: unknown) => {
      throw error instanceof ForeignBackupFolder ? new PointInTimeRefusal(error.message) : error;
    });
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const mode = await client.query<{ archive_mode: string }>("SHOW archive_mode");
    if (mode.rows[0]?.archive_mode !== "on") {
      throw new PointInTimeRefusal(
        "the embedded PostgreSQL does not archive its WAL: start the app once with WAL_ARCHIVE on",
      );
    }
    const label = `tri-county-electric ${at.toISOString()}`;
    await client.query("SELECT pg_backup_start($1, true)", [label]);
    started = true;
    const startedAt = at;
    await mkdir(partial, { mode: 0o700 });
    await copyCluster(path.join(dataDir, "postgres"), path.join(partial, "postgres"), options.signal);
    // A backup that waits longer than this for its WAL to be archived is not one: archiving is failing.
    await client.query("SET statement_timeout = '5min'");
    const stopped = await client.query<{ labelfile: string; spcmapfile: string | null; finished_at: Date }>(
      "SELECT labelfile, spcmapfile, clock_timestamp() AS finished_at FROM pg_backup_stop(true)",
    );
    started = false;
    const { labelfile, spcmapfile, finished_at: finishedAt } = stopped.rows[0] ?? {};
    if (!labelfile || !finishedAt) throw new Error("pg_backup_stop returned no backup label");
    await writeFile(path.join(partial, "postgres", "backup_label"), labelfile, { mode: 0o600 });
    if (spcmapfile) await writeFile(path.join(partial, "postgres", "tablespace_map"), spcmapfile, { mode: 0o600 });
    for (const name of PASSWORD_FILES) await copyFile(path.join(dataDir, name), path.join(partial, name));
    const startWalFile = /START WAL LOCATION: \S+ \(file ([0-9A-F]{24})\)/.exec(labelfile)?.[1];
    if (!startWalFile) throw new Error(`the backup label names no start WAL file: ${labelfile}`);
    const backup = { directory: target, startedAt, finishedAt, startWalFile, systemIdentifier };
    await writeFile(path.join(partial, MANIFEST), `${JSON.stringify({ ...backup, directory: undefined })}\n`, {
      mode: 0o600,
    });
    await syncFileSystem(partial);
    await rename(partial, target);
    await syncFile(directory);
    return backup;
  } catch (error) {
    if (started) await client.query("SELECT pg_backup_stop(false)").catch(() => {});
    await rm(partial, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Copies the cluster folder file by file (takeBaseBackup syncs them all at the end). Files change while they are copied; replaying the
 * WAL from the backup's start makes them consistent. A file removed meanwhile (a dropped table) is left out.
 */
async function copyCluster(from: string, to: string, signal: AbortSignal | undefined, top = true): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  const entries = await readdir(from, { withFileTypes: true }).catch(ignoreVanished([]));
  for (const entry of entries) {
    signal?.throwIfAborted();
    const source = path.join(from, entry.name);
    const destination = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (top && EMPTIED_DIRECTORIES.has(entry.name)) {
        await mkdir(destination, { mode: 0o700 });
        if (entry.name === "pg_wal") await mkdir(path.join(destination, "archive_status"), { mode: 0o700 });
      } else if (!entry.name.startsWith("pgsql_tmp")) {
        await copyCluster(source, destination, signal, false);
      }
    } else if (entry.isFile() && !LEFT_OUT_FILES.has(entry.name) && !entry.name.startsWith("pgsql_tmp")) {
      await copyFile(source, destination).catch(ignoreVanished(undefined));
    }
  }
}

const ignoreVanished =
  <T>(value: T) =>
  (error: NodeJS.ErrnoException): T => {
    if (error.code === "ENOENT") return value;
    throw error;
  };

/**
 * Everything written under `directory` on disk: one syncfs of its file system (coreutils' `sync -f`), where an
 * fsync of each of the cluster's thousand-odd files took twice as long. Elsewhere (macOS) a plain sync.
 */
async function syncFileSystem(directory: string): Promise<void> {
  const run = promisify(execFile);
  await run("sync", ["-f", directory]).catch(() => run("sync"));
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The whole base backups of `directory`, oldest first. */
export async function listBaseBackups(directory: string): Promise<BaseBackup[]> {
  const names = (await readdir(directory).catch(ignoreVanished([] as string[])))
    .filter((name) => name.startsWith(BASE_PREFIX) && !name.endsWith(".partial"))
    .sort();
  const backups: BaseBackup[] = [];
  for (const name of names) {
    const text = await readFile(path.join(directory, name, MANIFEST), "utf8").catch(ignoreVanished(undefined));
    if (text === undefined) continue;
    backups.push(parseManifest(text, path.join(directory, name)));
  }
  return backups;
}

/** An archived segment, a segment's `.partial` or a backup history file, gzipped: `<timeline><log><segment>[...].gz`. */
const LEFTOVER_AFTER_MS = 24 * 3_600_000;
const ARCHIVED_WAL = /^[0-9A-F]{8}([0-9A-F]{16})(\.partial|\.[0-9A-F]{8}\.backup)?\.gz(\.tmp)?$/;

/** Where an archived file sits in the WAL (its log and segment numbers), to compare; undefined for a history file. */
export const archivedWalPosition = (name: string): string | undefined => ARCHIVED_WAL.exec(name)?.[1];

/** The base backup's manifest as written, read from a file or a copy of it. */
export function parseManifest(text: string, directory: string): BaseBackup {
  const manifest = JSON.parse(text) as {
    startedAt: string;
    finishedAt: string;
    startWalFile: string;
    systemIdentifier?: string;
  };
  return {
    directory,
    startedAt: new Date(manifest.startedAt),
    finishedAt: new Date(manifest.finishedAt),
    startWalFile: manifest.startWalFile,
    systemIdentifier: manifest.systemIdentifier,
  };
}

/**
 * Keeps the newest `keep` base backups of the cluster `systemIdentifier` and the archived WAL the oldest of them
 * needs: its segments before its start are deleted (timeline history files are kept, they are small and every
 * restore reads them). Another cluster's base backups and segments are never touched. A `.partial` copy a day old
 * was left by a process that died mid-backup, and goes too. Resolves with what was deleted.
 */
export async function pruneBaseBackups(
  config: Pick<Config, "BACKUP_DIR" | "BACKUP_KEEP">,
  systemIdentifier: string,
): Promise<{ baseBackups: number; walFiles: number }> {
  const directory = baseBackupsDirectory(config);
  const backups: BaseBackup[] = [];
  for (const backup of await listBaseBackups(directory))
    if ((await baseBackupSystemIdentifier(backup)) === systemIdentifier) backups.push(backup);
  const old = backups.slice(0, Math.max(0, backups.length - config.BACKUP_KEEP));
  for (const backup of old) await rm(backup.directory, { recursive: true, force: true });
  const names = await readdir(directory).catch(ignoreVanished([] as string[]));
  for (const name of names.filter((name) => name.startsWith(BASE_PREFIX) && name.endsWith(".partial"))) {
    const modified = await stat(path.join(directory, name)).then((stats) => stats.mtimeMs, ignoreVanished(Date.now()));
    if (Date.now() - modified > LEFTOVER_AFTER_MS)
      await rm(path.join(directory, name), { recursive: true, force: true });
  }
  const oldest = backups[old.length];
  if (!oldest) return { baseBackups: old.length, walFiles: 0 };
  const oldestNeeded = oldest.startWalFile.slice(8);
  const archive = walArchiveDirectory(config);
  let walFiles = 0;
  for (const name of await readdir(archive).catch(ignoreVanished([] as string[]))) {
    const position = archivedWalPosition(name);
    if (position === undefined || position >= oldestNeeded) continue;
    const file = path.join(archive, name);
    if (!name.includes(".backup.") && (await archivedWalSystemIdentifier(file)) !== systemIdentifier) continue;
    await rm(file, { force: true });
    walFiles += 1;
  }
  return { baseBackups: old.length, walFiles };
}
