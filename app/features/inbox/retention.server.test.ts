import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeApplication, storeEstimate } from "#tests/inbox-fixture";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { loadConfig } from "~/services/config.server";
import { addressPostCounts, deliveries, submissionFiles, submissions } from "~/services/db/schema.server";
import { periodicJob } from "~/services/periodic-job.server";
import { applyRetention, runRetention } from "./retention.server";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

async function age(
  id: number,
  fields: { createdAt?: Date; spamSince?: Date; status?: string; statusChangedAt?: Date },
) {
  await database.db.update(submissions).set(fields).where(eq(submissions.id, id));
}

const existing = async (ids: number[]) =>
  (await database.db.select({ id: submissions.id }).from(submissions).where(inArray(submissions.id, ids))).map(
    (row) => row.id,
  );

const filesOf = (id: number) => database.db.$count(submissionFiles, eq(submissionFiles.submissionId, id));

describe("applyRetention", () => {
  it("deletes spam older than 30 days with its deliveries, and keeps newer spam and old real leads", async () => {
    const oldSpam = await storeEstimate(database.db, { spamReason: "too fast" });
    const newSpam = await storeEstimate(database.db, { spamReason: "too fast" });
    const oldLead = await storeEstimate(database.db);
    await age(oldSpam.id, { createdAt: daysAgo(31), spamSince: daysAgo(31) });
    await age(newSpam.id, { createdAt: daysAgo(29), spamSince: daysAgo(29) });
    await age(oldLead.id, { createdAt: daysAgo(400) });

    const outcome = await applyRetention(database.db, { resumeRetentionDays: 90 });
    expect(outcome.spamReferences).toEqual([oldSpam.reference]);
    expect(await existing([oldSpam.id, newSpam.id, oldLead.id])).toEqual(
      expect.arrayContaining([newSpam.id, oldLead.id]),
    );
    expect(await existing([oldSpam.id])).toEqual([]);
    expect(await database.db.$count(deliveries, eq(deliveries.submissionId, oldSpam.id))).toBe(0);
  });

  it("counts a submission's 30 days from when it was listed as spam, not from when it arrived", async () => {
    const markedLately = await storeEstimate(database.db, { spamReason: "marked as spam by staff" });
    await age(markedLately.id, { createdAt: daysAgo(400), spamSince: daysAgo(2) });
    const outcome = await applyRetention(database.db, { resumeRetentionDays: 90 });
    expect(outcome.spamReferences).not.toContain(markedLately.reference);
    expect(await existing([markedLately.id])).toEqual([markedLately.id]);
  });

  it("deletes the resumes of applicants rejected longer ago than configured, and keeps the application", async () => {
    const oldRejected = await storeApplication(database.db);
    const newRejected = await storeApplication(database.db);
    const oldHired = await storeApplication(database.db);
    await age(oldRejected.id, { status: "Rejected", statusChangedAt: daysAgo(11) });
    await age(newRejected.id, { status: "Rejected", statusChangedAt: daysAgo(9) });
    await age(oldHired.id, { status: "Hired", statusChangedAt: daysAgo(400) });

    const outcome = await applyRetention(database.db, { resumeRetentionDays: 10 });
    expect(outcome).toMatchObject({ spamReferences: [], resumeReferences: [oldRejected.reference] });
    expect(await filesOf(oldRejected.id)).toBe(0);
    expect(await filesOf(newRejected.id)).toBe(1);
    expect(await filesOf(oldHired.id)).toBe(1);
    expect(await existing([oldRejected.id])).toEqual([oldRejected.id]);

    expect(await applyRetention(database.db, { resumeRetentionDays: 10 })).toMatchObject({
      spamReferences: [],
      resumeReferences: [],
    });
  });

  it("deletes the counts per address that fell out of the public forms' limit window, and keeps the rest", async () => {
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await database.db.insert(addressPostCounts).values([
      { clientAddress: "198.51.100.30", minute: minutesAgo(11), connection: 1, posts: 4 },
      { clientAddress: "198.51.100.30", minute: minutesAgo(3), connection: 1, posts: 2 },
    ]);
    const outcome = await applyRetention(database.db, { resumeRetentionDays: 90 });
    expect(outcome.postCountsDeleted).toBe(1);
    const left = await database.db
      .select({ posts: addressPostCounts.posts })
      .from(addressPostCounts)
      .where(eq(addressPostCounts.clientAddress, "198.51.100.30"));
    expect(left).toEqual([{ posts: 2 }]);
  });

  it("reports each deletion once when two instances run at the same moment", async () => {
    const spam = await storeEstimate(database.db, { spamReason: "too fast" });
    await age(spam.id, { createdAt: daysAgo(60), spamSince: daysAgo(60) });
    const runs = await Promise.all([
      applyRetention(database.db, { resumeRetentionDays: 90 }),
      applyRetention(database.db, { resumeRetentionDays: 90 }),
    ]);
    expect(runs.flatMap((run) => run.spamReferences)).toEqual([spam.reference]);
  });
});

describe("the retention job", () => {
  it("runs at start and logs the counts and references at info level", async () => {
    const spam = await storeEstimate(database.db, { spamReason: "too fast" });
    await age(spam.id, { createdAt: daysAgo(45), spamSince: daysAgo(45) });
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const services = {
      db: database.db,
      config: loadConfig({ RESUME_RETENTION_DAYS: "90" }),
      logger,
      wakeDeliveryWorker() {},
    };
    const job = periodicJob("retention", 3_600_000, () => runRetention(services), logger);
    job.start();
    await job.stop();
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged).toEqual([
      expect.objectContaining({
        level: 30,
        msg: "retention deleted old spam and resumes",
        spamDeleted: 1,
        spamReferences: [spam.reference],
        resumesDeleted: 0,
      }),
    ]);
  });
});
