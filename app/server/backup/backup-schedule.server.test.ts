import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { createSmsSender } from "~/outbox/sms-sender.server";
import { alertTexts, backupRuns } from "~/server/db/schema.server";
import { verifyBackup } from "./backup-file.server";
import { createBackupJob, loadBackupStatus, takeScheduledBackup } from "./backup-schedule.server";

const logger = pino({ level: "silent" });
let database: TestDatabase;
let workDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  workDir = await mkdtemp(path.join(tmpdir(), "tce-backup-schedule-"));
});
afterAll(async () => {
  await database.drop();
  await rm(workDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.delete(backupRuns);
});

const HOUR = 3_600_000;

describe("scheduled backups", () => {
  it("take one every BACKUP_EVERY and keep the newest BACKUP_KEEP", async () => {
    const backupDir = path.join(workDir, "every");
    const job = createBackupJob({
      db: database.db,
      config: { BACKUP_DIR: backupDir, BACKUP_EVERY: 1_000, BACKUP_KEEP: 2 },
      logger,
    });
    job.start();
    try {
      await waitFor("four scheduled backups", async () => (await database.db.$count(backupRuns)) >= 4);
    } finally {
      await job.stop();
    }
    const runs = await database.db.select().from(backupRuns).orderBy(asc(backupRuns.startedAt));
    expect(runs.every((run) => run.error === null)).toBe(true);
    const kept = (await readdir(backupDir)).sort();
    expect(kept).toEqual(runs.slice(-2).map((run) => path.basename(run.file ?? "")));
    for (const name of kept) await verifyBackup(path.join(backupDir, name));
  });

  it("are taken by one instance at a time when several share a database", async () => {
    const backupDir = path.join(workDir, "shared");
    const config = { BACKUP_DIR: backupDir, BACKUP_EVERY: HOUR, BACKUP_KEEP: 7 };
    const outcomes = await Promise.all([1, 2, 3].map(() => takeScheduledBackup(database.db, config)));
    expect(outcomes.filter((outcome) => outcome === "taken")).toHaveLength(1);
    expect(await readdir(backupDir)).toHaveLength(1);
    expect(await takeScheduledBackup(database.db, config)).toBe("not due");
  });

  it("record a failure, which raises the dashboard's alert until the next good backup", async () => {
    const notADirectory = path.join(workDir, "a-file");
    await writeFile(notADirectory, "");
    const failing = { BACKUP_DIR: path.join(notADirectory, "backups"), BACKUP_EVERY: HOUR, BACKUP_KEEP: 7 };
    await takeScheduledBackup(database.db, { ...failing, BACKUP_DIR: path.join(workDir, "first") });
    await database.db.update(backupRuns).set({ startedAt: new Date(Date.now() - HOUR) });

    await expect(takeScheduledBackup(database.db, failing)).rejects.toThrow(/ENOTDIR/);
    const afterFailure = await loadBackupStatus(database.db, failing);
    expect(afterFailure?.alert).toBe("failed");
    expect(afterFailure?.lastGood?.bytes).toBeGreaterThan(0);

    expect(await takeScheduledBackup(database.db, { ...failing, BACKUP_DIR: path.join(workDir, "again") })).toBe(
      "taken",
    );
    expect((await loadBackupStatus(database.db, failing))?.alert).toBeUndefined();
  });

  it("text the on-call number once per failure episode, when a failure's retry fails too", async () => {
    const twilio = await startWebhookReceiver();
    const sms = createSmsSender(
      { accountSid: "AC1", authToken: "secret", from: "+18035550100", apiUrl: twilio.url },
      logger,
    );
    const notADirectory = path.join(workDir, "not-a-folder");
    await writeFile(notADirectory, "");
    const config = { BACKUP_EVERY: 200, BACKUP_KEEP: 7, SITE_URL: "https://office.example.com" };
    const runJob = async (backupDir: string, until: () => Promise<boolean>) => {
      const job = createBackupJob({
        db: database.db,
        config: { ...config, BACKUP_DIR: backupDir },
        logger,
        sendAlertText: async (text) => (await sms.send("+18035550199", { text })).ok,
      });
      job.start();
      try {
        await waitFor("the backup runs", until);
      } finally {
        await job.stop();
      }
    };
    const failedRuns = async () =>
      (await database.db.select().from(backupRuns)).filter((run) => run.error !== null).length;
    try {
      await runJob(path.join(notADirectory, "backups"), async () => (await failedRuns()) >= 5);
      expect(twilio.requests).toHaveLength(1);
      const text = new URLSearchParams(twilio.requests[0]?.body).get("Body");
      expect(text).toMatch(/^Alert: the scheduled backup failed, and failed again when retried \(.*ENOTDIR.*\)\. /);
      expect(text).toMatch(/ https:\/\/office\.example\.com\/admin\/quick-links$/);

      // A good backup ends the episode: the next failures that outlast their retry are texted again, once.
      await runJob(
        path.join(workDir, "good"),
        async () => (await database.db.$count(backupRuns)) > (await failedRuns()),
      );
      await runJob(path.join(notADirectory, "backups"), async () => (await failedRuns()) >= 10);
      expect(twilio.requests).toHaveLength(2);
      expect(await database.db.$count(alertTexts)).toBe(2);
    } finally {
      await twilio.close();
    }
  });

  it("raise the alert when there has been no good backup for twice BACKUP_EVERY", async () => {
    const config = { BACKUP_DIR: path.join(workDir, "overdue"), BACKUP_EVERY: HOUR, BACKUP_KEEP: 7 };
    expect(await loadBackupStatus(database.db, config)).toEqual({ lastGood: undefined, alert: "overdue" });
    await takeScheduledBackup(database.db, config);
    const status = await loadBackupStatus(database.db, config);
    expect(status?.alert).toBeUndefined();
    const finishedAt = new Date(status?.lastGood?.finishedAt ?? 0).getTime();
    expect((await loadBackupStatus(database.db, config, new Date(finishedAt + 2 * HOUR)))?.alert).toBeUndefined();
    expect((await loadBackupStatus(database.db, config, new Date(finishedAt + 2 * HOUR + 1)))?.alert).toBe("overdue");
  });

  it("are off, and not shown, with BACKUP_EVERY=0", async () => {
    const backupDir = path.join(workDir, "off");
    const job = createBackupJob({
      db: database.db,
      config: { BACKUP_DIR: backupDir, BACKUP_EVERY: 0, BACKUP_KEEP: 7 },
      logger,
    });
    job.start();
    await job.stop();
    expect(await database.db.$count(backupRuns)).toBe(0);
    expect(await loadBackupStatus(database.db, { BACKUP_EVERY: 0 })).toBeUndefined();
  });
});
