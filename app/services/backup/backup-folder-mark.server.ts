import { createReadStream, existsSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { endianness } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { type Config, defaultBackupDir, formerDefaultBackupDir } from "../config.server";
import { CopyError, describeDestination, inDestination, runRclone } from "./backup-copy.server";

/*
 * A backup folder belongs to one database. BACKUP_DIR and the copy at BACKUP_COPY_TO each hold
 * `backup-folder.json`, written on first use:
 *
 *   { "systemIdentifier": "7412...", "siteUrl": "https://...", "dataDir": "/srv/tce/prod" }
 *
 * The system identifier is the PostgreSQL cluster's (initdb draws it; pg_control, every WAL segment's first page and
 * every base backup carry it): it is what the folder belongs to. The site (SITE_URL, DATA_DIR) only names the owner
 * in a refusal. A cluster restored to a time from the folder's base backups is the same cluster (same identifier, a
 * new timeline): it continues the folder, and its first start rewrites the site, saying so. Anything else refuses.
 */

export const MARK_FILE = "backup-folder.json";

export type BackupFolderMark = { systemIdentifier: string; siteUrl?: string; dataDir?: string };

/** Which setting names the folder, for the refusal's line. */
export type BackupFolderSetting = "BACKUP_DIR" | "BACKUP_COPY_TO";

/** The folder holds another database's backups: one line naming the setting and what to set. */
export class ForeignBackupFolder extends Error {
  override name = "ForeignBackupFolder";
}

/** PostgreSQL writes pg_control and WAL page headers in the machine's byte order; the identifier is a uint64. */
const readIdentifier = (buffer: Buffer, offset: number) =>
  (endianness() === "LE" ? buffer.readBigUInt64LE(offset) : buffer.readBigUInt64BE(offset)).toString();

/**
 * The system identifier of the cluster folder `clusterDir` (`DATA_DIR/postgres`, or a base backup's `postgres`):
 * the first field of global/pg_control (ControlFileData.system_identifier), what pg_controldata prints first.
 * Undefined when there is no cluster there.
 */
export async function clusterSystemIdentifier(clusterDir: string): Promise<string | undefined> {
  const handle = await open(path.join(clusterDir, "global", "pg_control"), "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(8);
    const { bytesRead } = await handle.read(buffer, 0, 8, 0);
    return bytesRead === 8 ? readIdentifier(buffer, 0) : undefined;
  } finally {
    await handle.close();
  }
}

/** The identifier of the cluster a connection reaches (any role may ask). */
export async function databaseSystemIdentifier(client: Pick<pg.ClientBase, "query">): Promise<string> {
  const result = await client.query<{ id: string }>("SELECT system_identifier::text AS id FROM pg_control_system()");
  const id = result.rows[0]?.id;
  if (!id) throw new Error("pg_control_system() gave no system identifier");
  return id;
}

/** A WAL segment's long page header: xlp_sysid, 8 bytes at offset 24 of the segment. */
const WAL_SYSID_OFFSET = 24;

/**
 * The system identifier of an archived WAL segment (`<name>.gz`, or a segment's `.partial`), read from its first
 * page's long header: only the first bytes are unpacked. Undefined for a file too short to hold one.
 */
export async function archivedWalSystemIdentifier(file: string): Promise<string | undefined> {
  const source = createReadStream(file);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of source.pipe(createGunzip())) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= WAL_SYSID_OFFSET + 8) break;
    }
  } catch {
    return undefined;
  } finally {
    source.destroy();
  }
  const head = Buffer.concat(chunks);
  return head.length >= WAL_SYSID_OFFSET + 8 ? readIdentifier(head, WAL_SYSID_OFFSET) : undefined;
}

/** An archived segment or its `.partial`: the files that carry a long page header. */
const ARCHIVED_SEGMENT = /^[0-9A-F]{24}(\.partial)?\.gz$/;

/** The archived segments of `walDir` (names), in WAL order. */
export async function archivedSegments(walDir: string): Promise<string[]> {
  const names = (await readdir(walDir).catch(() => [] as string[])).filter((name) => ARCHIVED_SEGMENT.test(name));
  return names.sort((a, b) => a.slice(8).localeCompare(b.slice(8)) || a.localeCompare(b));
}

const parseMark = (text: string | undefined): BackupFolderMark | undefined => {
  if (!text?.trim()) return undefined;
  const mark = JSON.parse(text) as BackupFolderMark;
  return typeof mark.systemIdentifier === "string" ? mark : undefined;
};

export async function readFolderMark(folder: string): Promise<BackupFolderMark | undefined> {
  return parseMark(await readFile(path.join(folder, MARK_FILE), "utf8").catch(() => undefined));
}

async function writeFolderMark(folder: string, mark: BackupFolderMark): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, MARK_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(mark)}\n`, { mode: 0o644 });
  await rename(`${file}.tmp`, file);
}

/** The mark at BACKUP_COPY_TO; undefined when the copy has none (or is not there yet). */
export async function readCopyMark(destination: string): Promise<BackupFolderMark | undefined> {
  const text = await runRclone(["cat", inDestination(destination, MARK_FILE)], destination).catch((error: unknown) => {
    if (error instanceof CopyError && /not found/i.test(error.message)) return undefined;
    throw error;
  });
  return parseMark(text);
}

const describeOwner = (mark: BackupFolderMark) =>
  [
    `database system ${mark.systemIdentifier}`,
    mark.siteUrl && `SITE_URL ${mark.siteUrl}`,
    mark.dataDir && `DATA_DIR ${mark.dataDir}`,
  ]
    .filter(Boolean)
    .join(", ");

/** The one line of a refusal: which folder, whose it is, and what to set. */
export function foreignFolderMessage(
  setting: BackupFolderSetting,
  folder: string,
  owner: BackupFolderMark,
  dataDir?: string,
): string {
  const instead =
    setting === "BACKUP_DIR"
      ? `set BACKUP_DIR to a folder of this site's own${dataDir ? ` (unset, it is ${defaultBackupDir(dataDir)})` : ""}`
      : "set BACKUP_COPY_TO to a place of this site's own";
  return `${setting} ${folder} holds the backups of another database (${describeOwner(owner)}): ${instead}`;
}

export type ClaimOutcome = { marked: "new" | "same" } | { marked: "site changed"; before: BackupFolderMark };

const sameSite = (a: BackupFolderMark, b: BackupFolderMark) => a.siteUrl === b.siteUrl && a.dataDir === b.dataDir;

/**
 * Makes `ours` the mark of a folder that has none, keeps it when it is ours (rewriting the site when that changed:
 * a restored cluster started on a new DATA_DIR), and refuses (ForeignBackupFolder) a folder of another database.
 */
async function claim(
  setting: BackupFolderSetting,
  shownAs: string,
  ours: BackupFolderMark,
  read: () => Promise<BackupFolderMark | undefined>,
  write: (mark: BackupFolderMark) => Promise<void>,
): Promise<ClaimOutcome> {
  const found = await read();
  if (found && found.systemIdentifier !== ours.systemIdentifier)
    throw new ForeignBackupFolder(foreignFolderMessage(setting, shownAs, found, ours.dataDir));
  if (found && (sameSite(found, ours) || ours.siteUrl === undefined)) return { marked: "same" };
  await write(ours);
  return found ? { marked: "site changed", before: found } : { marked: "new" };
}

export type BackupFolderConfig = Pick<Config, "BACKUP_DIR" | "BACKUP_COPY_TO"> &
  Partial<Pick<Config, "SITE_URL" | "DATA_DIR" | "DATABASE_URL">>;

/**
 * The mark this site writes. DATA_DIR is named only when it holds the database (the embedded server): instances
 * sharing a DATABASE_URL each have their own DATA_DIR, and write one same mark.
 */
const ownMark = (config: BackupFolderConfig, systemIdentifier: string): BackupFolderMark => ({
  systemIdentifier,
  siteUrl: config.SITE_URL,
  dataDir: config.DATA_DIR === undefined || config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR),
});

export function claimBackupDir(config: BackupFolderConfig, systemIdentifier: string): Promise<ClaimOutcome> {
  const folder = path.resolve(config.BACKUP_DIR);
  return claim(
    "BACKUP_DIR",
    folder,
    ownMark(config, systemIdentifier),
    () => readFolderMark(folder),
    (mark) => writeFolderMark(folder, mark),
  );
}

export function claimCopy(destination: string, config: BackupFolderConfig, systemIdentifier: string) {
  return claim(
    "BACKUP_COPY_TO",
    describeDestination(destination),
    ownMark(config, systemIdentifier),
    () => readCopyMark(destination),
    async (mark) => {
      await runRclone(["rcat", inDestination(destination, MARK_FILE)], destination, {
        input: Readable.from([`${JSON.stringify(mark)}\n`]),
      });
    },
  );
}

/**
 * Claims BACKUP_DIR and, when set, the copy at BACKUP_COPY_TO for the database `systemIdentifier`; resolves with
 * the log lines that say what changed (a mark that now names a new site) or that the copy could not be reached
 * (the WAL copy checks it again before its first file). Rejects with ForeignBackupFolder.
 */
export async function claimBackupFolders(config: BackupFolderConfig, systemIdentifier: string): Promise<string[]> {
  const said: string[] = [];
  const tell = (setting: BackupFolderSetting, outcome: ClaimOutcome) => {
    if (outcome.marked !== "site changed") return;
    said.push(
      `${setting}'s mark now names this site (${describeOwner(ownMark(config, systemIdentifier))}); it named ${describeOwner(outcome.before)}: the same database, restored or moved, continues these backups`,
    );
  };
  tell("BACKUP_DIR", await claimBackupDir(config, systemIdentifier));
  if (!config.BACKUP_COPY_TO) return said;
  try {
    tell("BACKUP_COPY_TO", await claimCopy(config.BACKUP_COPY_TO, config, systemIdentifier));
  } catch (error) {
    if (!(error instanceof CopyError)) throw error;
    said.push(
      `BACKUP_COPY_TO's mark could not be checked (${error.message}): it is checked again before anything is copied there`,
    );
  }
  return said;
}

/**
 * BACKUP_DIR as the site uses it. Set, it is that. Unset, it is `<DATA_DIR>-backups`, except for a site that used
 * the former default (`backups` beside DATA_DIR) and has not used the new one: while that folder holds this
 * database's backups (its mark names this cluster or this DATA_DIR, or this SITE_URL for a DATABASE_URL site;
 * unmarked, its newest base backup or archived WAL is this cluster's, or it holds neither), the site keeps it
 * (`formerDefault`), and the start says so.
 */
export async function settleBackupDir<T extends Pick<Config, "BACKUP_DIR" | "DATA_DIR" | "SITE_URL">>(
  config: T,
  env: Record<string, string | undefined>,
): Promise<{ config: T; formerDefault: boolean }> {
  const unchanged = { config, formerDefault: false };
  if (env.BACKUP_DIR) return unchanged;
  const former = formerDefaultBackupDir(config.DATA_DIR);
  if (existsSync(config.BACKUP_DIR) || !existsSync(former)) return unchanged;
  const cluster = await clusterSystemIdentifier(path.join(config.DATA_DIR, "postgres"));
  const mark = await readFolderMark(former);
  const ours = mark
    ? mark.dataDir === path.resolve(config.DATA_DIR) ||
      (cluster !== undefined && mark.systemIdentifier === cluster) ||
      (cluster === undefined && mark.dataDir === undefined && mark.siteUrl === config.SITE_URL)
    : await heldBackupsAreOf(former, cluster);
  return ours ? { config: { ...config, BACKUP_DIR: former }, formerDefault: true } : unchanged;
}

/** Whether an unmarked folder's newest base backup, else its newest archived segment, is of `cluster`. */
async function heldBackupsAreOf(folder: string, cluster: string | undefined): Promise<boolean> {
  const bases = (await readdir(path.join(folder, "base")).catch(() => [] as string[]))
    .filter((name) => name.startsWith("base-") && !name.endsWith(".partial"))
    .sort();
  const newestBase = bases.at(-1);
  const newestSegment = (await archivedSegments(path.join(folder, "wal"))).at(-1);
  const held = newestBase
    ? await clusterSystemIdentifier(path.join(folder, "base", newestBase, "postgres"))
    : newestSegment && (await archivedWalSystemIdentifier(path.join(folder, "wal", newestSegment)));
  return held === undefined || held === cluster;
}
