import { chmod, chown, cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { DateTime } from "luxon";
import pg from "pg";
import pino from "pino";
import { company } from "../../content/company";
import {
  archivedSegments,
  archivedWalSystemIdentifier,
  type BackupFolderMark,
  type BackupFolderSetting,
  clusterSystemIdentifier,
  foreignFolderMessage,
  readFolderMark,
} from "../backup/backup-folder-mark.server";
import type { Config } from "../config.server";
import { startEmbeddedPostgres } from "../db/embedded-postgres.server";
import {
  ARCHIVE_TIMEOUT_SECONDS,
  confString,
  postgresOwner,
  restoreCommand,
  writeClusterSettings,
} from "../db/wal-archiving.server";
import { StartRefusal } from "../start-refusal.server";
import {
  archivedWalPosition,
  type BaseBackup,
  baseBackupSystemIdentifier,
  baseBackupsDirectory,
  listBaseBackups,
  PointInTimeRefusal,
  walArchiveDirectory,
} from "./base-backup.server";
import { countCommits, parseLsn } from "./wal-commits.server";

/** Everything archived: the newest base backup with every archived segment replayed (a machine lost). */
export type RecoveryTarget = Date | "latest";

/**
 * The moment to restore to: ISO 8601 with its offset (`2026-11-29T14:05:00-05:00`, `...Z`), a date and time
 * without one (`2026-11-29 14:05:00`), which is the company's wall clock (America/New_York), or `latest`.
 */
export function parseRecoveryTarget(text: string): RecoveryTarget {
  if (text.trim() === "latest") return "latest";
  const iso = text.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T]/, "$1T");
  const withOffset = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(iso);
  const parsed = DateTime.fromISO(iso, withOffset ? { setZone: true } : { zone: company.timeZone });
  if (!parsed.isValid || !/T\d{2}:\d{2}/.test(iso)) {
    throw new PointInTimeRefusal(
      `"${text}" is not a time: write "2026-11-29 14:05:00" (New York time), ISO 8601 with an offset ("2026-11-29T19:05:00Z") or latest`,
    );
  }
  return parsed.toJSDate();
}

/** `2026-11-29 14:05:00.000 EST (2026-11-29T19:05:00.000Z)`: the company's clock, and the instant unmistakably. */
export function describeTime(at: RecoveryTarget): string {
  if (at === "latest") return "the end of the archive";
  const local = DateTime.fromJSDate(at, { zone: company.timeZone }).toFormat("yyyy-MM-dd HH:mm:ss.SSS ZZZZ");
  return `${local} (${at.toISOString()})`;
}

export type PointInTimeRestore = {
  baseBackup: BaseBackup;
  /** The commit time of the last transaction replayed: the restored database holds nothing committed after it. */
  lastTransactionAt: Date | undefined;
  /** The database system restored: the base backup and every archived WAL file from its start are of it. */
  systemIdentifier: string;
  /** The folder's mark, which names the site it belongs to; undefined for a folder not marked yet. */
  mark: BackupFolderMark | undefined;
  /** Commit records replayed, from the base backup's start to the last record (wal-commits.server.ts). */
  transactionsReplayed: number | undefined;
};

/** Where the backups come from, as a refusal names it: BACKUP_DIR, or the copy at BACKUP_COPY_TO. */
export type RestoreSource = { setting: BackupFolderSetting; shownAs: string };

/**
 * What a restore reads must all be of one database: the one BACKUP_DIR's mark names (else the cluster in DATA_DIR,
 * else the base backup's own). A BACKUP_DIR marked for another database than DATA_DIR's, a base backup or an
 * archived WAL segment (its long page header's xlp_sysid) of another refuses, naming it. Resolves with the
 * identifier and the mark.
 */
async function refuseOtherDatabases(
  config: Pick<Config, "BACKUP_DIR"> & Partial<Pick<Config, "DATA_DIR">>,
  baseBackup: BaseBackup,
  source: RestoreSource,
): Promise<{ systemIdentifier: string; mark: BackupFolderMark | undefined }> {
  const mark = await readFolderMark(config.BACKUP_DIR);
  const local = config.DATA_DIR ? await clusterSystemIdentifier(path.join(config.DATA_DIR, "postgres")) : undefined;
  if (mark && local && mark.systemIdentifier !== local)
    throw new PointInTimeRefusal(foreignFolderMessage(source.setting, source.shownAs, mark, config.DATA_DIR));
  const base = await baseBackupSystemIdentifier(baseBackup);
  const systemIdentifier = mark?.systemIdentifier ?? local ?? base;
  if (!base || !systemIdentifier)
    throw new PointInTimeRefusal(`the base backup ${path.basename(baseBackup.directory)} holds no pg_control`);
  const whose = mark ? `${source.setting}'s mark` : local ? "the cluster in DATA_DIR" : "";
  if (base !== systemIdentifier) {
    throw new PointInTimeRefusal(
      `the base backup ${path.basename(baseBackup.directory)} in ${source.shownAs} is of database system ${base}, not ${systemIdentifier} (${whose}): it is another database's; move it out of ${source.setting} and restore again`,
    );
  }
  const wal = walArchiveDirectory(config);
  const start = baseBackup.startWalFile.slice(8);
  for (const name of await archivedSegments(wal)) {
    if ((archivedWalPosition(name) ?? "") < start) continue;
    const held = await archivedWalSystemIdentifier(path.join(wal, name));
    if (held !== undefined && held !== systemIdentifier) {
      throw new PointInTimeRefusal(
        `the archived WAL file ${name} in ${source.shownAs} is of database system ${held}, not ${systemIdentifier}${whose ? ` (${whose})` : ", the base backup's"}: another database's WAL among this one's; move it out of ${source.setting} and restore again`,
      );
    }
  }
  return { systemIdentifier, mark };
}

/** Refuses a target in the future and a folder that is not empty; resolves with the folder's absolute path. */
export async function refuseUnlessRestorable(target: RecoveryTarget, folder: string): Promise<string> {
  const into = path.resolve(folder);
  if (target !== "latest" && target.getTime() > Date.now())
    throw new PointInTimeRefusal(`${describeTime(target)} is in the future`);
  const existing = await readdir(into).catch(() => []);
  if (existing.length > 0) {
    throw new PointInTimeRefusal(`${into} is not empty: restore into a new folder, which becomes the new DATA_DIR`);
  }
  return into;
}

/**
 * Restores the embedded cluster as it was at `target` into `into`, a new DATA_DIR: the newest base backup finished
 * before `target`, with the archived WAL replayed up to it, then promoted to a database of its own (a new timeline).
 * It reads BACKUP_DIR and writes only `into`, so it is harmless beside the live app. The restored cluster does not
 * archive until an app starts on it (that app's WAL_ARCHIVE decides), so a trial restore never writes into the
 * live server's archive.
 */
export async function restoreToTime(options: {
  config: Pick<Config, "BACKUP_DIR"> & Partial<Pick<Config, "DATA_DIR">>;
  target: RecoveryTarget;
  into: string;
  source?: RestoreSource;
}): Promise<PointInTimeRestore> {
  const { config, target } = options;
  const source = options.source ?? { setting: "BACKUP_DIR", shownAs: path.resolve(config.BACKUP_DIR) };
  const into = await refuseUnlessRestorable(target, options.into);
  const backups = await listBaseBackups(baseBackupsDirectory(config));
  const baseBackup = backups.filter((backup) => target === "latest" || backup.finishedAt <= target).at(-1);
  if (!baseBackup) {
    const oldest = backups[0];
    throw new PointInTimeRefusal(
      oldest
        ? `no base backup finished before ${describeTime(target)}; the oldest in ${baseBackupsDirectory(config)} finished ${describeTime(oldest.finishedAt)}`
        : `no base backup in ${baseBackupsDirectory(config)}: the app takes one at start with WAL_ARCHIVE on, or run npm run base-backup`,
    );
  }

  const { systemIdentifier, mark } = await refuseOtherDatabases(config, baseBackup, source);
  const label = await readFile(path.join(baseBackup.directory, "postgres", "backup_label"), "utf8");
  const startLsn = /START WAL LOCATION: ([0-9A-F]+\/[0-9A-F]+)/.exec(label)?.[1];
  await mkdir(into, { recursive: true, mode: 0o700 });
  try {
    const archive = walArchiveDirectory(config);
    const { lastTransactionAt, replayedTo } = await recover(baseBackup, archive, target, into);
    const transactionsReplayed =
      startLsn && replayedTo ? await countCommits(archive, parseLsn(startLsn), parseLsn(replayedTo)) : undefined;
    return { baseBackup, lastTransactionAt, systemIdentifier, mark, transactionsReplayed };
  } catch (error) {
    await rm(into, { recursive: true, force: true });
    throw error;
  }
}

async function recover(baseBackup: BaseBackup, archive: string, target: RecoveryTarget, into: string) {
  await cp(baseBackup.directory, into, {
    recursive: true,
    filter: (source) => path.basename(source) !== "base-backup.json",
  });
  const clusterDir = path.join(into, "postgres");
  await writeClusterSettings(clusterDir, [
    "archive_mode = off",
    `restore_command = ${confString(restoreCommand(archive))}`,
    ...(target === "latest"
      ? []
      : [
          // PostgreSQL's recovery_target_time takes `2026-11-29 19:05:00.123+00`, not ISO 8601's `T` and `Z`.
          `recovery_target_time = ${confString(target.toISOString().replace("T", " ").replace("Z", "+00"))}`,
          "recovery_target_action = 'promote'",
        ]),
  ]);
  await writeFile(path.join(clusterDir, "recovery.signal"), "", { mode: 0o600 });
  await giveToPostgres(clusterDir);

  // PostgreSQL says why a recovery failed only in its log, which embedded-postgres hands to the logger at debug.
  const postgresLog: string[] = [];
  const logger = pino(
    { level: "debug" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const postgres = (JSON.parse(chunk.toString()) as { postgres?: string }).postgres;
        if (postgres) postgresLog.push(...postgres.split("\n"));
        done();
      },
    }),
  );
  const embedded = await startEmbeddedPostgres({ dataDir: into, logger }).catch((error: unknown) => {
    if (error instanceof StartRefusal) throw new PointInTimeRefusal(error.message);
    const why = postgresLog
      .filter((line) => /FATAL|ERROR|invalid|could not/.test(line))
      .slice(-2)
      .map((line) => line.replace(/^.*?(FATAL|ERROR|LOG):\s*/, ""));
    const hint = why.some((line) => line.includes("before configured recovery target was reached"))
      ? ` (the archive ends before that time: the live server archives its WAL within ${ARCHIVE_TIMEOUT_SECONDS} s; choose an earlier time or try again in a minute)`
      : "";
    throw new PointInTimeRefusal(
      `PostgreSQL could not recover to ${describeTime(target)}: ${why.length > 0 ? why.join("; ") : (error as Error).message}${hint}`,
    );
  });
  try {
    const client = new pg.Client({ connectionString: embedded.superuserUrl });
    await client.connect();
    try {
      const replayed = await client.query<{ at: Date | null; lsn: string | null }>(
        "SELECT pg_last_xact_replay_timestamp() AS at, pg_last_wal_replay_lsn()::text AS lsn",
      );
      await writeClusterSettings(clusterDir, ["archive_mode = off"]);
      return { lastTransactionAt: replayed.rows[0]?.at ?? undefined, replayedTo: replayed.rows[0]?.lsn ?? undefined };
    } finally {
      await client.end();
    }
  } finally {
    await embedded.stop();
  }
}

/** As root, PostgreSQL runs as `postgres`, which must own its cluster folder (mode 0700) and every file in it. */
async function giveToPostgres(clusterDir: string): Promise<void> {
  await chmod(clusterDir, 0o700);
  const owner = await postgresOwner();
  if (!owner) return;
  const chownAll = async (directory: string) => {
    await chown(directory, owner.uid, owner.gid);
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const entryPath = path.join(directory, entry.name);
      if (entry.isDirectory()) await chownAll(entryPath);
      else await chown(entryPath, owner.uid, owner.gid);
    }
  };
  await chownAll(clusterDir);
}
