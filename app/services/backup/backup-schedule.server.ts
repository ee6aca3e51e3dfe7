import { rm } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import { alertTexts, backupRuns } from "../db/schema.server";
import {
  type BackupCopyConfig,
  type CopyOutcome,
  checkCopyDestination,
  copyPendingBackups,
  describeDestination,
} from "./backup-copy.server";
import { backupKeyOf } from "./backup-encryption.server";
import { listBackups, removeLeftPartials, type WrittenBackup, writeBackup } from "./backup-file.server";
import { claimBackupDir, claimCopy, databaseSystemIdentifier } from "./backup-folder-mark.server";

/** Any fixed number: it names the lock that lets one backup at a time be written, by any instance or by hand. */
const BACKUP_LOCK_ID = 7_240_312;
/** A failed backup is tried again after this long, or after BACKUP_EVERY when that is shorter. */
const RETRY_AFTER_MS = 60_000;
/** A failed copy is tried again after this long (or at the next backup, when that is sooner). */
const COPY_RETRY_AFTER_MS = 15 * 60_000;
/** A timer fires a little late or early: a backup this close to BACKUP_EVERY old counts as due. */
const DUE_SLACK = 0.9;

export type BackupScheduleConfig = Pick<
  Config,
  "BACKUP_DIR" | "BACKUP_EVERY" | "BACKUP_KEEP" | "BACKUP_ENCRYPTION_KEY"
> &
  Partial<Pick<Config, "SITE_URL" | "DATA_DIR">> &
  BackupCopyConfig;

/**
 * Each pass first makes sure BACKUP_DIR is this database's (marking it when unmarked): a folder of another database
 * is neither written nor pruned (ForeignBackupFolder), and the pass is recorded as failed. The copy's mark is
 * checked at start: a copy out of reach must not fail the backup.
 */
async function claimFolder(
  db: Database,
  config: BackupScheduleConfig | Omit<BackupScheduleConfig, "BACKUP_EVERY">,
): Promise<(destination: string) => Promise<unknown>> {
  try {
    const systemIdentifier = await databaseSystemIdentifier(db.$client);
    await claimBackupDir(config, systemIdentifier);
    return (destination) => claimCopy(destination, config, systemIdentifier);
  } catch (error) {
    await recordFailure(db, new Date(), error);
    throw error;
  }
}

async function recordFailure(db: Database, startedAt: Date, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await db.insert(backupRuns).values({ startedAt, error: message });
}

/**
 * Holds the backup lock (a session advisory lock) while `work` runs: instances sharing a database take turns, and
 * a backup by hand waits for a scheduled one. While it is held no backup of this database is being written, so a
 * `.partial` in BACKUP_DIR is one a killed run left. `wait: false` resolves with "busy" instead of waiting.
 */
async function withBackupLock<T>(db: Database, wait: boolean, work: () => Promise<T>): Promise<T | "busy"> {
  const client = await db.$client.connect();
  try {
    if (wait) await client.query("SELECT pg_advisory_lock($1)", [BACKUP_LOCK_ID]);
    else {
      const locked = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
        BACKUP_LOCK_ID,
      ]);
      if (!locked.rows[0]?.locked) return "busy";
    }
    try {
      return await work();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [BACKUP_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

type BackupPass = {
  /** The `.partial` files a killed backup had left, now deleted. */
  sweptPartials: string[];
  /** Undefined when BACKUP_COPY_TO is unset. */
  copy: CopyOutcome | undefined;
};

export type ScheduledBackup =
  | { outcome: "busy" }
  | (BackupPass & { outcome: "taken" | "not due" /** When the next backup is due. */; dueInMs: number });

/** The newest backup that succeeded, scheduled or by hand, of any instance. */
async function lastGoodBackup(db: Database) {
  const [last] = await db
    .select({ id: backupRuns.id, startedAt: backupRuns.startedAt })
    .from(backupRuns)
    .where(isNull(backupRuns.error))
    .orderBy(desc(backupRuns.startedAt))
    .limit(1);
  return last;
}

/**
 * Takes a backup when the last good one, by any instance or by hand, is BACKUP_EVERY old, then keeps the newest
 * BACKUP_KEEP files of BACKUP_DIR. Either way it sweeps what a killed backup left and copies the backups not
 * copied yet. An instance that finds the lock held does nothing: the holder is taking the backup.
 */
export async function takeScheduledBackup(db: Database, config: BackupScheduleConfig): Promise<ScheduledBackup> {
  const pass = await withBackupLock(db, false, async () => {
    const claimCopy = await claimFolder(db, config);
    const sweptPartials = await removeLeftPartials(config.BACKUP_DIR);
    const last = await lastGoodBackup(db);
    const age = last ? Date.now() - last.startedAt.getTime() : Number.POSITIVE_INFINITY;
    if (age < config.BACKUP_EVERY * DUE_SLACK) {
      const copy = await copyPendingBackups(db, config, claimCopy);
      return { outcome: "not due" as const, dueInMs: config.BACKUP_EVERY - age, sweptPartials, copy };
    }
    const startedAt = new Date();
    try {
      const written = await writeBackup(db.$client, config.BACKUP_DIR, backupKeyOf(config), startedAt);
      await recordBackup(db, startedAt, written);
    } catch (error) {
      await recordFailure(db, startedAt, error);
      throw error;
    }
    await keepNewest(config.BACKUP_DIR, config.BACKUP_KEEP);
    const copy = await copyPendingBackups(db, config, claimCopy);
    return { outcome: "taken" as const, dueInMs: config.BACKUP_EVERY, sweptPartials, copy };
  });
  return pass === "busy" ? { outcome: "busy" } : pass;
}

/**
 * `npm run backup`: waits for a scheduled backup being taken, then takes one, counted like a scheduled one (the
 * dashboard, /metrics, the next scheduled backup's time), keeps the newest BACKUP_KEEP and copies what is not copied.
 */
export async function takeBackupByHand(
  db: Database,
  config: Omit<BackupScheduleConfig, "BACKUP_EVERY">,
): Promise<BackupPass & { written: WrittenBackup }> {
  const pass = await withBackupLock(db, true, async () => {
    const claimCopy = await claimFolder(db, config);
    const sweptPartials = await removeLeftPartials(config.BACKUP_DIR);
    const startedAt = new Date();
    const written = await writeBackup(db.$client, config.BACKUP_DIR, backupKeyOf(config), startedAt);
    await recordBackup(db, startedAt, written);
    await keepNewest(config.BACKUP_DIR, config.BACKUP_KEEP);
    return { written, sweptPartials, copy: await copyPendingBackups(db, config, claimCopy) };
  });
  if (pass === "busy") throw new Error("the backup lock was not taken");
  return pass;
}

async function recordBackup(db: Database, startedAt: Date, written: WrittenBackup): Promise<void> {
  await db.insert(backupRuns).values({ startedAt, file: written.file, bytes: written.bytes });
}

/** Deletes all but the newest `keep` backups of the folder; other files stay. */
async function keepNewest(directory: string, keep: number): Promise<void> {
  for (const name of (await listBackups(directory)).slice(keep)) await rm(path.join(directory, name), { force: true });
}

/** Logs what a pass did besides the backup itself: the partial files swept and the copies, made or failed. */
function logPass(pass: BackupPass, config: BackupScheduleConfig, logger: Logger): void {
  if (pass.sweptPartials.length > 0) {
    logger.warn({ files: pass.sweptPartials }, "deleted the unfinished files of a backup that was stopped");
  }
  if (!pass.copy || !config.BACKUP_COPY_TO) return;
  const copyTo = describeDestination(config.BACKUP_COPY_TO);
  if (pass.copy.copied.length > 0) {
    logger.info({ copyTo, files: pass.copy.copied }, "backup copied off the machine and read back whole");
  }
  for (const failure of pass.copy.failed) {
    logger.error({ copyTo, file: failure.file, reason: failure.reason }, "backup copy failed; tried again later");
  }
  if (pass.copy.deletedCopies.length > 0) {
    logger.info({ copyTo, files: pass.copy.deletedCopies }, "old backup copies deleted (BACKUP_COPY_KEEP)");
  }
  if (pass.copy.retentionFailure) {
    logger.error({ copyTo, reason: pass.copy.retentionFailure }, "old backup copies not deleted");
  }
}

/** Sends a text to the on-call number (ALERT_SMS_TO); resolves with whether it was sent. */
export type AlertTextSender = (text: string) => Promise<boolean>;

/**
 * Texts the on-call number once per failure episode: when a failed backup's retry failed too, and not again
 * until a good backup ends the episode. The episode is keyed in `alert_texts` by its first failed run, so of
 * several instances one texts; a text that could not be sent gives the key back for the next retry.
 */
export async function textBackupFailure(
  db: Database,
  sendAlertText: AlertTextSender,
  siteUrl: string | undefined,
): Promise<boolean> {
  const lastGood = await lastGoodBackup(db);
  const failedSince = await db
    .select({ id: backupRuns.id, error: backupRuns.error })
    .from(backupRuns)
    .where(lastGood ? and(isNotNull(backupRuns.error), gt(backupRuns.id, lastGood.id)) : isNotNull(backupRuns.error))
    .orderBy(asc(backupRuns.id));
  const first = failedSince[0];
  const latest = failedSince.at(-1);
  if (!first || !latest || failedSince.length < 2) return false;
  const key = `backup-failed:${first.id}`;
  const [claimed] = await db
    .insert(alertTexts)
    .values({ key })
    .onConflictDoNothing()
    .returning({ key: alertTexts.key });
  if (!claimed) return false;
  const reason = (latest.error ?? "").slice(0, 200);
  const sent = await sendAlertText(
    `Alert: the scheduled backup failed, and failed again when retried (${reason}). ${siteUrl ?? ""}/admin/quick-links`,
  ).catch(() => false);
  if (!sent) await db.delete(alertTexts).where(eq(alertTexts.key, key));
  return sent;
}

export type BackupJob = { start: () => void; stop: () => Promise<void> };

/**
 * Tries a backup at start, then when the last one, of any instance or by hand, is BACKUP_EVERY old: a restart
 * does not push the next one back. Sooner again after a failure; BACKUP_EVERY=0 is off.
 * With `sendAlertText`, a failure whose retry failed too is texted to the on-call number.
 */
export function createBackupJob(options: {
  db: Database;
  config: BackupScheduleConfig & Partial<Pick<Config, "SITE_URL">>;
  logger: Logger;
  sendAlertText?: AlertTextSender;
}): BackupJob {
  const { db, config, logger, sendAlertText } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run();
    }, delayMs);
  };

  async function run(): Promise<void> {
    try {
      const result = await takeScheduledBackup(db, config);
      if (result.outcome === "busy") return schedule(RETRY_AFTER_MS);
      if (result.outcome === "taken") logger.info({ backupDir: config.BACKUP_DIR }, "scheduled backup taken");
      logPass(result, config, logger);
      const copyFailed = (result.copy?.failed.length ?? 0) > 0;
      schedule(copyFailed ? Math.min(COPY_RETRY_AFTER_MS, result.dueInMs) : result.dueInMs);
    } catch (error) {
      logger.error({ err: error }, "scheduled backup failed; trying again");
      if (sendAlertText) {
        await textBackupFailure(db, sendAlertText, config.SITE_URL).then(
          (sent) => sent && logger.info("scheduled backup failure texted to ALERT_SMS_TO"),
          (textFailure: unknown) => logger.error({ err: textFailure }, "scheduled backup failure not texted"),
        );
      }
      schedule(Math.min(RETRY_AFTER_MS, config.BACKUP_EVERY));
    }
  }

  return {
    start: () => {
      if (config.BACKUP_EVERY === 0) return;
      running = run();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type BackupStatus = {
  lastGood: { finishedAt: string; bytes: number } | undefined;
  /** No good backup for longer than twice BACKUP_EVERY, or the last try failed. */
  alert: "overdue" | "failed" | undefined;
};

/** What the dashboard says about backups; undefined when scheduled backups are off. */
export async function loadBackupStatus(
  db: Database,
  config: Pick<Config, "BACKUP_EVERY">,
  now = new Date(),
): Promise<BackupStatus | undefined> {
  if (config.BACKUP_EVERY === 0) return undefined;
  const [[lastGood], [lastRun]] = await Promise.all([
    db
      .select({ finishedAt: backupRuns.finishedAt, bytes: backupRuns.bytes })
      .from(backupRuns)
      .where(isNotNull(backupRuns.file))
      .orderBy(desc(backupRuns.finishedAt))
      .limit(1),
    db.select({ error: backupRuns.error }).from(backupRuns).orderBy(desc(backupRuns.finishedAt)).limit(1),
  ]);
  const overdue = !lastGood || now.getTime() - lastGood.finishedAt.getTime() > 2 * config.BACKUP_EVERY;
  return {
    lastGood: lastGood ? { finishedAt: lastGood.finishedAt.toISOString(), bytes: lastGood.bytes ?? 0 } : undefined,
    alert: overdue ? "overdue" : lastRun?.error ? "failed" : undefined,
  };
}

/**
 * Said once at start: whether backups leave the machine, and where the backups of an install older than the
 * default BACKUP_DIR beside DATA_DIR are. A BACKUP_COPY_TO that rclone cannot use refuses the start.
 */
export async function announceBackupPlaces(
  config: Pick<Config, "DATA_DIR" | "BACKUP_DIR" | "BACKUP_COPY_TO">,
  logger: Logger,
): Promise<void> {
  if (config.BACKUP_COPY_TO) await checkCopyDestination(config.BACKUP_COPY_TO);
  else {
    logger.info(
      { backupDir: config.BACKUP_DIR },
      "backups stay on this machine: set BACKUP_COPY_TO to copy each one elsewhere",
    );
  }
  const formerDir = path.join(config.DATA_DIR, "backups");
  if (path.resolve(formerDir) === path.resolve(config.BACKUP_DIR)) return;
  const former = await listBackups(formerDir);
  if (former.length === 0) return;
  logger.warn(
    { formerDir, backupDir: config.BACKUP_DIR, files: former.length },
    "older backups are in DATA_DIR/backups, where nothing keeps or copies them: move them into BACKUP_DIR",
  );
}
