import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, isNotNull } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { capturingLogger } from "#tests/capturing-logger";
import { type OffMachinePlace, startOffMachinePlace } from "#tests/rclone-webdav";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { createSmsSender } from "~/outbox/sms-sender.server";
import { alertTexts, backupRuns } from "~/services/db/schema.server";
import { decodeBackupKey } from "./backup-encryption.server";
import { verifyBackup } from "./backup-file.server";
import { MARK_FILE } from "./backup-folder-mark.server";
import {
  announceBackupPlaces,
  createBackupJob,
  loadBackupStatus,
  takeBackupByHand,
  takeScheduledBackup,
} from "./backup-schedule.server";

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
const BACKUP_ENCRYPTION_KEY = randomBytes(32).toString("base64");
const opening = { key: decodeBackupKey(BACKUP_ENCRYPTION_KEY), allowPlain: false };

describe("scheduled backups", () => {
  it("take one every BACKUP_EVERY and keep the newest BACKUP_KEEP", async () => {
    const backupDir = path.join(workDir, "every");
    const job = createBackupJob({
      db: database.db,
      config: {
        BACKUP_DIR: backupDir,
        BACKUP_EVERY: 1_000,
        BACKUP_KEEP: 2,
        BACKUP_COPY_KEEP: 7,
        BACKUP_ENCRYPTION_KEY,
      },
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
    const kept = (await readdir(backupDir)).filter((name) => name !== MARK_FILE).sort();
    expect(kept).toEqual(runs.slice(-2).map((run) => path.basename(run.file ?? "")));
    for (const name of kept) await verifyBackup(path.join(backupDir, name), opening);
  });

  it("are taken by one instance at a time when several share a database", async () => {
    const backupDir = path.join(workDir, "shared");
    const config = {
      BACKUP_DIR: backupDir,
      BACKUP_EVERY: HOUR,
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 7,
      BACKUP_ENCRYPTION_KEY,
    };
    const outcomes = await Promise.all([1, 2, 3].map(() => takeScheduledBackup(database.db, config)));
    expect(outcomes.filter((result) => result.outcome === "taken")).toHaveLength(1);
    expect((await readdir(backupDir)).sort()).toEqual([MARK_FILE, expect.stringMatching(/\.backup$/)]);
    expect((await takeScheduledBackup(database.db, config)).outcome).toBe("not due");
  });

  it("record a failure, which raises the dashboard's alert until the next good backup", async () => {
    const notADirectory = path.join(workDir, "a-file");
    await writeFile(notADirectory, "");
    const failing = {
      BACKUP_DIR: path.join(notADirectory, "backups"),
      BACKUP_EVERY: HOUR,
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 7,
      BACKUP_ENCRYPTION_KEY,
    };
    await takeScheduledBackup(database.db, { ...failing, BACKUP_DIR: path.join(workDir, "first") });
    await database.db.update(backupRuns).set({ startedAt: new Date(Date.now() - HOUR) });

    await expect(takeScheduledBackup(database.db, failing)).rejects.toThrow(/ENOTDIR/);
    const afterFailure = await loadBackupStatus(database.db, failing);
    expect(afterFailure?.alert).toBe("failed");
    expect(afterFailure?.lastGood?.bytes).toBeGreaterThan(0);

    const again = await takeScheduledBackup(database.db, { ...failing, BACKUP_DIR: path.join(workDir, "again") });
    expect(again.outcome).toBe("taken");
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
    const config = {
      BACKUP_EVERY: 200,
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 7,
      BACKUP_ENCRYPTION_KEY,
      SITE_URL: "https://office.example.com",
    };
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
    const config = {
      BACKUP_DIR: path.join(workDir, "overdue"),
      BACKUP_EVERY: HOUR,
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 7,
      BACKUP_ENCRYPTION_KEY,
    };
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
      config: { BACKUP_DIR: backupDir, BACKUP_EVERY: 0, BACKUP_KEEP: 7, BACKUP_COPY_KEEP: 7, BACKUP_ENCRYPTION_KEY },
      logger,
    });
    job.start();
    await job.stop();
    expect(await database.db.$count(backupRuns)).toBe(0);
    expect(await loadBackupStatus(database.db, { BACKUP_EVERY: 0 })).toBeUndefined();
  });
});

describe("the schedule across a restart", () => {
  it("deletes at the start what a backup killed before the restart left, and takes the next one when the last one is BACKUP_EVERY old, not BACKUP_EVERY after the start", async () => {
    const backupDir = path.join(workDir, "restart");
    const first = await takeBackupByHand(database.db, {
      BACKUP_DIR: backupDir,
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 7,
      BACKUP_ENCRYPTION_KEY,
    });
    // What a backup killed midway leaves (server/backup-by-hand.test.ts kills one): its first bytes, never renamed.
    const partial = path.join(backupDir, "tri-county-electric-20260101T000000.000Z.backup.partial");
    await writeFile(partial, (await readFile(first.written.file)).subarray(0, 4096));
    // As if the app restarts 4 s before the last backup is BACKUP_EVERY (20 s) old: not due at the start.
    const every = 20_000;
    await database.db.update(backupRuns).set({ startedAt: new Date(Date.now() - every + 4_000) });
    const job = createBackupJob({
      db: database.db,
      config: {
        BACKUP_DIR: backupDir,
        BACKUP_EVERY: every,
        BACKUP_KEEP: 7,
        BACKUP_COPY_KEEP: 7,
        BACKUP_ENCRYPTION_KEY,
      },
      logger,
    });
    const started = Date.now();
    job.start();
    try {
      await waitFor("the backup due 4 s after the start", async () => (await database.db.$count(backupRuns)) > 1);
    } finally {
      await job.stop();
    }
    expect(Date.now() - started).toBeLessThan(14_000);
    expect((await readdir(backupDir)).filter((name) => name.endsWith(".partial"))).toEqual([]);
    expect(
      (await readdir(backupDir)).filter((name) => name !== path.basename(first.written.file) && name !== MARK_FILE),
    ).toHaveLength(1);
  });
});

describe("copies off the machine", () => {
  let place: OffMachinePlace;
  beforeAll(async () => {
    place = await startOffMachinePlace();
    // rclone, run by the app's code in this process, reads its config from here; a refused connection is not
    // tried again and again.
    Object.assign(process.env, { RCLONE_CONFIG: place.configFile, RCLONE_RETRIES: "1", RCLONE_LOW_LEVEL_RETRIES: "1" });
  });
  afterAll(async () => {
    for (const name of ["RCLONE_CONFIG", "RCLONE_RETRIES", "RCLONE_LOW_LEVEL_RETRIES"]) delete process.env[name];
    await place.close();
  });
  const servedBackups = async () =>
    (await readdir(path.join(place.servedDir, "tce-backups"))).filter((name) => name !== MARK_FILE).sort();

  it("go to BACKUP_COPY_TO after each backup, byte for byte, and the newest BACKUP_COPY_KEEP stay there", async () => {
    const config = {
      BACKUP_DIR: path.join(workDir, "copied"),
      BACKUP_KEEP: 7,
      BACKUP_COPY_KEEP: 2,
      BACKUP_ENCRYPTION_KEY,
    };
    const files: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const pass = await takeBackupByHand(database.db, { ...config, BACKUP_COPY_TO: place.copyTo });
      expect(pass.copy?.failed).toEqual([]);
      expect(pass.copy?.copied).toEqual([path.basename(pass.written.file)]);
      files.push(pass.written.file);
    }
    expect(await servedBackups()).toEqual(files.slice(-2).map((file) => path.basename(file)));
    for (const file of files.slice(-2)) {
      const copy = await readFile(path.join(place.servedDir, "tce-backups", path.basename(file)));
      expect(Buffer.compare(copy, await readFile(file))).toBe(0);
    }
    expect(await database.db.$count(backupRuns, isNotNull(backupRuns.copiedAt))).toBe(3);
  });

  it("that fail leave the backup, are logged without the destination's password, and are made at the next run", async () => {
    const obscured = execFileSync("rclone", ["obscure", place.password], { encoding: "utf8" }).trim();
    const address = /url = http:\/\/([\d.:]+)\//.exec(await readFile(place.configFile, "utf8"))?.[1];
    // A connection string carries its credentials in the setting itself.
    const copyTo = `:webdav,url='http://${address}/',vendor=other,user=backups,pass=${obscured}:tce-backups`;
    const config = {
      BACKUP_DIR: path.join(workDir, "copy-failed"),
      BACKUP_EVERY: HOUR,
      BACKUP_KEEP: 7,
      BACKUP_COPY_TO: copyTo,
      BACKUP_COPY_KEEP: 30,
      BACKUP_ENCRYPTION_KEY,
    };
    const { lines, logger: capturing } = capturingLogger();
    const runJob = async () => {
      const job = createBackupJob({ db: database.db, config, logger: capturing });
      job.start();
      await job.stop();
    };
    await place.stop();
    try {
      await runJob();
    } finally {
      await place.start();
    }
    const [run] = await database.db.select().from(backupRuns);
    expect(run?.error).toBeNull();
    await verifyBackup(run?.file ?? "", opening);
    expect(run?.copiedAt).toBeNull();
    expect(run?.copyError).toMatch(/connection refused/);
    const failure = lines.find((line) => line.includes("backup copy failed"));
    expect(failure).toContain(":webdav:…");
    for (const line of lines) {
      expect(line).not.toContain(obscured);
      expect(line).not.toContain(place.password);
      expect(line).not.toContain("pass=");
    }

    // The next run finds the backup not due, and copies the one that is not copied yet.
    await runJob();
    const [copied] = await database.db.select().from(backupRuns);
    expect(copied?.copiedAt).toBeInstanceOf(Date);
    expect(copied?.copyError).toBeNull();
    expect(await database.db.$count(backupRuns)).toBe(1);
    expect(lines.some((line) => line.includes("backup copied off the machine and read back whole"))).toBe(true);
    const name = path.basename(run?.file ?? "");
    const copy = await readFile(path.join(place.servedDir, "tce-backups", name));
    expect(Buffer.compare(copy, await readFile(run?.file ?? ""))).toBe(0);
  });

  it("refuse the start when BACKUP_COPY_TO names a remote rclone's config lacks, and say so when it is unset", async () => {
    const places = { DATA_DIR: path.join(workDir, "data"), BACKUP_DIR: path.join(workDir, "places") };
    await expect(announceBackupPlaces({ ...places, BACKUP_COPY_TO: "nowhere:backups" }, logger)).rejects.toThrow(
      /^BACKUP_COPY_TO names the rclone remote "nowhere", which rclone's config does not have/,
    );
    await announceBackupPlaces({ ...places, BACKUP_COPY_TO: place.copyTo }, logger);
    const { lines, logger: capturing } = capturingLogger();
    await announceBackupPlaces(places, capturing);
    expect(lines.join("")).toContain("backups stay on this machine: set BACKUP_COPY_TO");
  });
});
