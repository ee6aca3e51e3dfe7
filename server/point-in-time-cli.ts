// `npm run base-backup` and `npm run restore-to-time -- "<time>" --into <folder>`: the embedded server's
// continuous protection (decision 0803). Run from the sources (tsx) like the other admin commands; both are harmless
// beside a live app: the base backup reads the cluster through PostgreSQL's backup API, the restore writes only
// into a new folder.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CopyError, describeDestination } from "../app/services/backup/backup-copy.server";
import { readBackupKey } from "../app/services/backup/backup-encryption.server";
import { settleBackupDir } from "../app/services/backup/backup-folder-mark.server";
import { type Config, ConfigError, loadConfig } from "../app/services/config.server";
import { openEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { createLogger } from "../app/services/logger.server";
import { fetchCopiesForRestore } from "../app/services/point-in-time/archive-copy.server";
import { PointInTimeRefusal, pruneBaseBackups, takeBaseBackup } from "../app/services/point-in-time/base-backup.server";
import {
  describeTime,
  parseRecoveryTarget,
  type RecoveryTarget,
  refuseUnlessRestorable,
  restoreToTime,
} from "../app/services/point-in-time/restore-to-time.server";
import { StartRefusal } from "../app/services/start-refusal.server";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `Usage: npm run base-backup
       npm run restore-to-time -- "<time>"|latest --into <new folder> [--from-copy]

base-backup      copies the embedded PostgreSQL's cluster into BACKUP_DIR/base (the running app's, or one started for
                 the command), keeping the newest BACKUP_KEEP and the archived WAL they need
restore-to-time  restores the database as it was at <time> into <new folder>, a new DATA_DIR: the newest base
                 backup before <time> with BACKUP_DIR/wal replayed up to it. <time> is New York time
                 ("2026-11-29 14:05:00") or ISO 8601 with an offset ("2026-11-29T19:05:00Z"); latest replays all
                 that was archived (a lost machine). --from-copy reads the base backup and the WAL from
                 BACKUP_COPY_TO, the copy off the machine, instead of BACKUP_DIR.`;

class UsageError extends Error {}

async function archivingConfig(): Promise<Config> {
  const { config } = await settleBackupDir(loadConfig(process.env), process.env);
  if (config.DATABASE_URL || config.WAL_ARCHIVE === "off") {
    throw new PointInTimeRefusal(
      "WAL archiving is off (DATABASE_URL is set, or WAL_ARCHIVE=off): there is nothing to restore to a time from; see docs/running/continuous-protection.md",
    );
  }
  return config;
}

async function baseBackup(): Promise<void> {
  const config = await archivingConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const embedded = await openEmbeddedPostgres({ dataDir: config.DATA_DIR, logger }).catch((error: unknown) => {
    throw error instanceof StartRefusal ? new PointInTimeRefusal(error.message) : error;
  });
  try {
    const backup = await takeBaseBackup({ superuserUrl: embedded.superuserUrl, config });
    const pruned = await pruneBaseBackups(config, backup.systemIdentifier);
    console.log(
      `${backup.directory} (finished ${describeTime(backup.finishedAt)}); removed ${pruned.baseBackups} older base backups and ${pruned.walFiles} archived WAL files`,
    );
  } finally {
    await embedded.stop();
  }
}

async function restore(time: string, into: string, fromCopy: boolean): Promise<void> {
  const config = await archivingConfig();
  const target = parseRecoveryTarget(time);
  const started = Date.now();
  const restored = fromCopy
    ? await restoreFromCopy(config, target, into)
    : await restoreToTime({ config, target, into });
  const { baseBackup, lastTransactionAt, systemIdentifier, mark, transactionsReplayed } = restored;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const last = lastTransactionAt ? describeTime(lastTransactionAt) : "none after the base backup";
  const site = mark?.siteUrl ? `, the backups of ${mark.siteUrl} (DATA_DIR ${mark.dataDir})` : "";
  const replayed =
    transactionsReplayed === undefined
      ? "the transactions replayed could not be counted"
      : `${transactionsReplayed} transaction${transactionsReplayed === 1 ? "" : "s"} replayed (commit records in the WAL from the base backup's start to the last record replayed)`;
  console.log(`Restored to ${describeTime(target)} into ${path.resolve(into)} in ${seconds} s
  from ${baseBackup.directory}, with the archived WAL replayed to the target; last transaction replayed: ${last}
  ${replayed}; every file read was of database system ${systemIdentifier}${site}
To run the app on it: stop the app; copy data-encryption-key and session-secret from the old DATA_DIR into the
new folder (unless DATA_ENCRYPTION_KEY and SESSION_SECRET are set); start the app with DATA_DIR=${path.resolve(into)}.
It is the same database system on a new timeline: it continues these backups, and its first start makes the
backup folder's mark name the new DATA_DIR (the start logs it).`);
}

/** The same restore from what BACKUP_COPY_TO holds, brought into a folder beside `into` and deleted after. */
async function restoreFromCopy(config: Config, target: RecoveryTarget, into: string) {
  const destination = config.BACKUP_COPY_TO;
  if (!destination) throw new PointInTimeRefusal("--from-copy reads BACKUP_COPY_TO, which is not set");
  const key = await readBackupKey(config);
  if (!key) {
    throw new PointInTimeRefusal(
      "the copy is sealed, and neither BACKUP_ENCRYPTION_KEY nor DATA_DIR's backup-encryption-key is there: set BACKUP_ENCRYPTION_KEY to the key it was sealed with",
    );
  }
  // Refused before anything is brought from the copy, which can take minutes.
  const folder = `${await refuseUnlessRestorable(target, into)}.from-copy`;
  await rm(folder, { recursive: true, force: true });
  try {
    await fetchCopiesForRestore({ destination, key, target, folder }).catch((error: unknown) => {
      throw error instanceof CopyError ? new PointInTimeRefusal(`the copy could not be read: ${error.message}`) : error;
    });
    const shownAs = describeDestination(destination);
    const restored = await restoreToTime({
      config: { BACKUP_DIR: folder },
      target,
      into,
      source: { setting: "BACKUP_COPY_TO", shownAs },
    });
    const name = path.basename(restored.baseBackup.directory);
    return { ...restored, baseBackup: { ...restored.baseBackup, directory: `${shownAs}/base/${name}` } };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { into: { type: "string" }, "from-copy": { type: "boolean" }, help: { type: "boolean" } },
  });
  const [command, time, ...extra] = positionals;
  if (values.help) return console.log(USAGE);
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  if (command === "base-backup" && !time && !values.into) return baseBackup();
  if (command === "restore-to-time" && time && values.into && extra.length === 0)
    return restore(time, values.into, values["from-copy"] === true);
  throw new UsageError(USAGE);
}

try {
  await main();
} catch (error) {
  if (error instanceof PointInTimeRefusal) {
    console.error(`Refused: ${error.message}`);
    process.exitCode = 1;
  } else if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
