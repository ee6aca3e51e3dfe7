import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ESTIMATE_WEBHOOK, setDeliveryStatus, storeEstimate } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { deliveries, submissionEvents, submissions } from "~/services/db/schema.server";
import { MARKED_BY_STAFF_REASON, markSubmissionSpam } from "./spam-marking.server";

const setup = staffTestDatabaseForFile();

const twoTargets = [ESTIMATE_WEBHOOK, { ...ESTIMATE_WEBHOOK, target: "WEBHOOK_ESTIMATE_INTERNAL_URL" }];

const statusesOf = (submissionId: number) =>
  setup.database.db
    .select({ status: deliveries.status, nextAttemptAt: deliveries.nextAttemptAt })
    .from(deliveries)
    .where(eq(deliveries.submissionId, submissionId))
    .orderBy(asc(deliveries.id));

const submissionRow = async (id: number) =>
  (await setup.database.db.select().from(submissions).where(eq(submissions.id, id)))[0];

describe("markSubmissionSpam", () => {
  it("as not spam releases the held deliveries to be sent now, and records it", async () => {
    const { id } = await storeEstimate(setup.database.db, { spamReason: "filled in too fast", deliveries: twoTargets });
    expect((await statusesOf(id)).map((row) => row.status)).toEqual(["held", "held"]);

    expect(
      await markSubmissionSpam(setup.database.db, { submissionId: id, actorId: setup.actorId, isSpam: false }),
    ).toBe(true);
    const released = await statusesOf(id);
    expect(released.map((row) => row.status)).toEqual(["pending", "pending"]);
    const [{ now }] = (await setup.database.pool.query<{ now: Date }>("SELECT now()")).rows as [{ now: Date }];
    for (const row of released) expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(await submissionRow(id)).toMatchObject({ isSpam: false, spamReason: null });
    const events = await setup.database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, id));
    expect(events).toEqual([
      expect.objectContaining({ kind: "spam", actorId: setup.actorId, fromValue: "spam", toValue: "not spam" }),
    ]);
  });

  it("as not spam gets the held deliveries sent by the worker", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const target = { ...ESTIMATE_WEBHOOK, destination: receiver.url };
      const { id } = await storeEstimate(setup.database.db, {
        spamReason: "a link in the comments",
        deliveries: [target],
      });
      const { deliveryWorker } = loadContextFor(setup.database.db, { WEBHOOK_ESTIMATE_URL: receiver.url });
      const [held] = await setup.database.db
        .select({ webhookId: deliveries.webhookId })
        .from(deliveries)
        .where(eq(deliveries.submissionId, id));
      const toThisOne = () => receiver.requests.filter((request) => request.headers["webhook-id"] === held?.webhookId);
      // Sends whatever earlier tests left due; the held one is not among them.
      await deliveryWorker.runOnce();
      expect(toThisOne()).toHaveLength(0);
      await markSubmissionSpam(setup.database.db, { submissionId: id, actorId: setup.actorId, isSpam: false });
      await deliveryWorker.runOnce();
      expect(toThisOne()).toHaveLength(1);
      expect((await statusesOf(id)).map((row) => row.status)).toEqual(["delivered"]);
    } finally {
      await receiver.close();
    }
  });

  it("as spam holds the pending deliveries and leaves the finished ones alone", async () => {
    const { id } = await storeEstimate(setup.database.db, { deliveries: twoTargets });
    const [first] = await setup.database.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(eq(deliveries.submissionId, id));
    if (!first) throw new Error("no delivery");
    await setup.database.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, first.id));

    expect(
      await markSubmissionSpam(setup.database.db, { submissionId: id, actorId: setup.actorId, isSpam: true }),
    ).toBe(true);
    expect((await statusesOf(id)).map((row) => row.status)).toEqual(["delivered", "held"]);
    expect(await submissionRow(id)).toMatchObject({ isSpam: true, spamReason: MARKED_BY_STAFF_REASON });
  });

  it("changes nothing and records nothing when the flag is already so", async () => {
    const { id } = await storeEstimate(setup.database.db);
    await setDeliveryStatus(setup.database.db, id, "failed");
    expect(
      await markSubmissionSpam(setup.database.db, { submissionId: id, actorId: setup.actorId, isSpam: false }),
    ).toBe(false);
    expect((await statusesOf(id)).map((row) => row.status)).toEqual(["failed"]);
    expect(await setup.database.db.$count(submissionEvents, eq(submissionEvents.submissionId, id))).toBe(0);
  });
});
