import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import { alertTexts, backupRuns } from "../db/schema.server";
import { BACKUP_FILE_EXTENSION, writeBackup } from "./backup-file.server";

/** Any fixed number: it names the lock that lets one instance at a time take the scheduled backup. */
const BACKUP_LOCK_ID = 7_240_312;
/** A failed backup is tried again after this long, or after BACKUP_EVERY when that is shorter. */
const RETRY_AFTER_MS = 60_000;
/** A timer fires a little late or early: a backup this close to BACKUP_EVERY old counts as due. */
const DUE_SLACK = 0.9;

export type BackupScheduleConfig = Pick<Config, "BACKUP_DIR" | "BACKUP_EVERY" | "BACKUP_KEEP">;

/**
 * Takes a backup when the last good one, by any instance, is BACKUP_EVERY old, then keeps the newest BACKUP_KEEP
 * files of BACKUP_DIR. The session advisory lock makes instances sharing a database take turns: the one that
 * waits finds the fresh backup and does nothing. Resolves with what it did.
 */
export async function takeScheduledBackup(
  db: Database,
  config: BackupScheduleConfig,
): Promise<"taken" | "not due" | "busy"> {
  const client = await db.$client.connect();
  try {
    const locked = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
      BACKUP_LOCK_ID,
    ]);
    if (!locked.rows[0]?.locked) return "busy";
    try {
      const [last] = await db
        .select({ startedAt: backupRuns.startedAt })
        .from(backupRuns)
        .where(isNull(backupRuns.error))
        .orderBy(desc(backupRuns.startedAt))
        .limit(1);
      if (last && Date.now() - last.startedAt.getTime() < config.BACKUP_EVERY * DUE_SLACK) return "not due";
      const startedAt = new Date();
      try {
        const written = await writeBackup(db.$client, config.BACKUP_DIR, startedAt);
        await db.insert(backupRuns).values({ startedAt, file: written.file, bytes: written.bytes });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.insert(backupRuns).values({ startedAt, error: message });
        throw error;
      }
      await keepNewest(config.BACKUP_DIR, config.BACKUP_KEEP);
      return "taken";
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [BACKUP_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

/** Deletes all but the newest `keep` backups of the folder (their names sort by time); other files stay. */
async function keepNewest(directory: string, keep: number): Promise<void> {
  const names = (await readdir(directory))
    .filter((name) => name.startsWith("tri-county-electric-") && name.endsWith(BACKUP_FILE_EXTENSION))
    .sort()
    .reverse();
  for (const name of names.slice(keep)) await rm(path.join(directory, name), { force: true });
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
  const [lastGood] = await db
    .select({ id: backupRuns.id })
    .from(backupRuns)
    .where(isNull(backupRuns.error))
    .orderBy(desc(backupRuns.startedAt))
    .limit(1);
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
 * Tries a backup at start and every BACKUP_EVERY after it (sooner again after a failure); BACKUP_EVERY=0 is off.
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
      const outcome = await takeScheduledBackup(db, config);
      if (outcome === "taken") logger.info({ backupDir: config.BACKUP_DIR }, "scheduled backup taken");
      schedule(config.BACKUP_EVERY);
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
