import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { ESTIMATE_WEBHOOK, setDeliveryStatus, storeEstimate } from "#tests/inbox-fixture";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { deliveries, submissionEvents } from "~/server/db/schema.server";
import { replayDelivery } from "./replay-delivery.server";
import { markSubmissionSpam } from "./spam-marking.server";
import { WorkflowInputError } from "./workflow-error";

const setup = staffTestDatabaseForFile();
/** The configuration now: the operator has corrected the estimate webhook's URL since it was stored. */
const CORRECTED = { WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/corrected" };

const deliveriesOf = (submissionId: number) =>
  setup.database.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.submissionId, submissionId))
    .orderBy(asc(deliveries.id));

async function estimateWithDelivery(status: "failed" | "delivered" | "pending" | "held") {
  const { id } = await storeEstimate(setup.database.db);
  await setDeliveryStatus(setup.database.db, id, status);
  const [delivery] = await deliveriesOf(id);
  if (!delivery) throw new Error("no delivery stored");
  return { submissionId: id, delivery };
}

describe("replayDelivery", () => {
  it.each(["failed", "delivered"] as const)(
    "makes a new pending delivery of a %s one with the same webhook-id, target and body, to the URL set now",
    async (status) => {
      const { submissionId, delivery } = await estimateWithDelivery(status);
      const { deliveryId, destination } = await replayDelivery(
        setup.database.db,
        { submissionId, deliveryId: delivery.id, actorId: setup.actorId },
        CORRECTED,
      );
      expect(destination).toBe(CORRECTED.WEBHOOK_ESTIMATE_URL);
      const [original, replay] = await deliveriesOf(submissionId);
      expect(original).toEqual(delivery);
      expect(replay).toMatchObject({
        id: deliveryId,
        webhookId: delivery.webhookId,
        channel: delivery.channel,
        target: delivery.target,
        destination: CORRECTED.WEBHOOK_ESTIMATE_URL,
        body: delivery.body,
        bodyFormat: delivery.bodyFormat,
        status: "pending",
        attemptCount: 0,
      });
      const events = await setup.database.db
        .select()
        .from(submissionEvents)
        .where(eq(submissionEvents.submissionId, submissionId));
      expect(events).toEqual([
        expect.objectContaining({
          kind: "replay",
          actorId: setup.actorId,
          fromValue: delivery.target,
          toValue: delivery.webhookId,
        }),
      ]);
    },
  );

  it.each(["pending", "held"] as const)("refuses a %s delivery", async (status) => {
    const { submissionId, delivery } = await estimateWithDelivery(status);
    await expect(
      replayDelivery(setup.database.db, { submissionId, deliveryId: delivery.id, actorId: setup.actorId }, CORRECTED),
    ).rejects.toThrow(new WorkflowInputError("Only a failed or delivered delivery can be replayed."));
    expect(await deliveriesOf(submissionId)).toHaveLength(1);
  });

  it("refuses a second replay while the first is still under way", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("failed");
    await replayDelivery(
      setup.database.db,
      { submissionId, deliveryId: delivery.id, actorId: setup.actorId },
      CORRECTED,
    );
    await expect(
      replayDelivery(setup.database.db, { submissionId, deliveryId: delivery.id, actorId: setup.actorId }, CORRECTED),
    ).rejects.toThrow("A replay of this delivery is already under way.");
    expect(await deliveriesOf(submissionId)).toHaveLength(2);
  });

  it("refuses a delivery of another submission, and any delivery of spam", async () => {
    const first = await estimateWithDelivery("failed");
    const second = await estimateWithDelivery("failed");
    await expect(
      replayDelivery(
        setup.database.db,
        {
          submissionId: second.submissionId,
          deliveryId: first.delivery.id,
          actorId: setup.actorId,
        },
        CORRECTED,
      ),
    ).rejects.toThrow(WorkflowInputError);
    await markSubmissionSpam(setup.database.db, {
      submissionId: first.submissionId,
      actorId: setup.actorId,
      isSpam: true,
    });
    await expect(
      replayDelivery(
        setup.database.db,
        {
          submissionId: first.submissionId,
          deliveryId: first.delivery.id,
          actorId: setup.actorId,
        },
        CORRECTED,
      ),
    ).rejects.toThrow(/marked as spam/);
  });

  it("refuses a webhook replay while its target is not set, and says which setting is missing", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("failed");
    await expect(
      replayDelivery(setup.database.db, { submissionId, deliveryId: delivery.id, actorId: setup.actorId }, {}),
    ).rejects.toThrow(
      new WorkflowInputError("WEBHOOK_ESTIMATE_URL is not set, so there is nowhere to replay this to."),
    );
    expect(await deliveriesOf(submissionId)).toHaveLength(1);
  });

  it("sends the replay with the same webhook-id and submission-reference headers as the first send", async () => {
    const receiver = await startWebhookReceiver();
    const urls = { WEBHOOK_ESTIMATE_URL: receiver.url };
    const worker = createDeliveryWorker({
      db: setup.database.db,
      config: { DELIVERY_RETRY_SCHEDULE: ["0"], ...urls },
      logger: pino({ level: "silent" }),
    });
    // The other tests' replays are pending too and go to the URL set now: this message's sends are told by id.
    const sendsOf = (webhookId: string) =>
      receiver.requests.filter((request) => request.headers["webhook-id"] === webhookId);
    try {
      const stored = await storeEstimate(setup.database.db, {
        deliveries: [{ ...ESTIMATE_WEBHOOK, destination: receiver.url }],
      });
      const [first] = await deliveriesOf(stored.id);
      if (!first) throw new Error("no delivery stored");
      const sentTimes = (count: number) => async () => {
        await worker.runOnce();
        return sendsOf(first.webhookId).length === count;
      };
      await waitFor("the first send", sentTimes(1));
      await replayDelivery(
        setup.database.db,
        { submissionId: stored.id, deliveryId: first.id, actorId: setup.actorId },
        urls,
      );
      await waitFor("the replay's send", sentTimes(2));

      expect(sendsOf(first.webhookId).map((send) => send.headers["submission-reference"])).toEqual([
        stored.reference,
        stored.reference,
      ]);
      expect((await deliveriesOf(stored.id)).map((row) => row.reference)).toEqual([stored.reference, stored.reference]);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });
});
