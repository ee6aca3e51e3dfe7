import { asc, eq, sql } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { ESTIMATE_WEBHOOK, SENDING_LIMITS, setDeliveryStatus, storeEstimate } from "#tests/inbox-fixture";
import { addStaffUser } from "#tests/staff";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { deliveries, submissionEvents } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { replayDelivery } from "./replay-delivery.server";
import { markSubmissionSpam } from "./spam-marking.server";
import { WorkflowInputError } from "./workflow-error";

const setup = staffTestDatabaseForFile();
const ON_CALL_TEXT = {
  channel: "sms",
  target: "NEW_LEAD_SMS_TO",
  destination: "+18035550160",
  body: { text: "New estimate request" },
} as const;
const OFFICE_EMAIL = {
  channel: "email",
  target: "STAFF_NOTIFY_EMAIL",
  destination: "office@example.com",
  body: { subject: "New estimate request", text: "A new estimate request came in." },
} as const;
/** The configuration now: the operator has corrected the estimate webhook's URL since it was stored. */
const CORRECTED = { WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/corrected", ...SENDING_LIMITS };

const staffMember = () => ({ id: setup.actorId, role: "staff" as const });
let admin: { id: number; role: "admin" };
beforeAll(async () => {
  admin = { id: (await addStaffUser(setup.database.db, "admin")).id, role: "admin" };
});

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
  it.each([
    ["failed", "staff"],
    ["delivered", "admin"],
  ] as const)(
    "makes a new pending delivery of a %s one with the same webhook-id, target and body, to the URL set now (%s)",
    async (status, role) => {
      const { submissionId, delivery } = await estimateWithDelivery(status);
      const replayer = role === "admin" ? admin : staffMember();
      const { deliveryId, destination } = await replayDelivery(
        setup.database.db,
        { submissionId, deliveryId: delivery.id, replayer, confirmed: true },
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
        replayedById: replayer.id,
      });
      const events = await setup.database.db
        .select()
        .from(submissionEvents)
        .where(eq(submissionEvents.submissionId, submissionId));
      expect(events).toEqual([
        expect.objectContaining({
          kind: "replay",
          actorId: replayer.id,
          fromValue: delivery.target,
          toValue: delivery.webhookId,
        }),
      ]);
    },
  );

  it.each(["pending", "held"] as const)("refuses a %s delivery", async (status) => {
    const { submissionId, delivery } = await estimateWithDelivery(status);
    await expect(
      replayDelivery(setup.database.db, { submissionId, deliveryId: delivery.id, replayer: staffMember() }, CORRECTED),
    ).rejects.toThrow(new WorkflowInputError("Only a failed or delivered delivery can be replayed."));
    expect(await deliveriesOf(submissionId)).toHaveLength(1);
  });

  it("refuses a second replay while the first is still under way", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("failed");
    await replayDelivery(
      setup.database.db,
      { submissionId, deliveryId: delivery.id, replayer: staffMember() },
      CORRECTED,
    );
    await expect(
      replayDelivery(setup.database.db, { submissionId, deliveryId: delivery.id, replayer: staffMember() }, CORRECTED),
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
          replayer: staffMember(),
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
          replayer: staffMember(),
        },
        CORRECTED,
      ),
    ).rejects.toThrow(/marked as spam/);
  });

  it("refuses a webhook replay while its target is not set, and says which setting is missing", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("failed");
    await expect(
      replayDelivery(
        setup.database.db,
        { submissionId, deliveryId: delivery.id, replayer: staffMember() },
        SENDING_LIMITS,
      ),
    ).rejects.toThrow(
      new WorkflowInputError("WEBHOOK_ESTIMATE_URL is not set, so there is nowhere to replay this to."),
    );
    expect(await deliveriesOf(submissionId)).toHaveLength(1);
  });

  it("sends the replay with the same webhook-id and submission-reference headers as the first send", async () => {
    const receiver = await startWebhookReceiver();
    const urls = { WEBHOOK_ESTIMATE_URL: receiver.url, ...SENDING_LIMITS };
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
        { submissionId: stored.id, deliveryId: first.id, replayer: admin, confirmed: true },
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

  it("refuses a staff member's replay of a delivered message with a 403, from any of its sends, and stores nothing", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("failed");
    const replay = await replayDelivery(
      setup.database.db,
      { submissionId, deliveryId: delivery.id, replayer: staffMember() },
      CORRECTED,
    );
    await setup.database.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, replay.deliveryId));
    // The first send is still "failed", but its message reached the receiver by the replay.
    for (const deliveryId of [delivery.id, replay.deliveryId]) {
      const refused = replayDelivery(
        setup.database.db,
        { submissionId, deliveryId, replayer: staffMember(), confirmed: true },
        CORRECTED,
      );
      await expect(refused).rejects.toThrow(
        new WorkflowInputError("This was delivered, so only an admin can send it again. Nothing was sent.", 403),
      );
      await expect(refused.catch((error: WorkflowInputError) => error.status)).resolves.toBe(403);
    }
    expect(await deliveriesOf(submissionId)).toHaveLength(2);
  });

  it("sends a delivered message again for an admin only once confirmed, and once a day, saying when it may go again", async () => {
    const { submissionId, delivery } = await estimateWithDelivery("delivered");
    const request = { submissionId, deliveryId: delivery.id, replayer: admin };
    await expect(replayDelivery(setup.database.db, request, CORRECTED)).rejects.toThrow(
      "This was delivered: confirm that it should be sent again (once a day at most). Nothing was sent.",
    );
    expect(await deliveriesOf(submissionId)).toHaveLength(1);

    const replay = await replayDelivery(setup.database.db, { ...request, confirmed: true }, CORRECTED);
    await setup.database.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, replay.deliveryId));
    const [replayed] = await setup.database.db.select().from(deliveries).where(eq(deliveries.id, replay.deliveryId));
    const again = formatStaffTime(new Date((replayed?.createdAt.getTime() ?? 0) + 24 * 3_600_000));
    for (const deliveryId of [delivery.id, replay.deliveryId]) {
      const refused = replayDelivery(setup.database.db, { ...request, deliveryId, confirmed: true }, CORRECTED);
      await expect(refused).rejects.toThrow(
        `This was sent again less than a day ago. It can be sent again after ${again}. Nothing was sent.`,
      );
      await expect(refused.catch((error: WorkflowInputError) => error.status)).resolves.toBe(409);
    }
    expect(await deliveriesOf(submissionId)).toHaveLength(2);

    // A day after the replay, it may be sent again.
    await setup.database.db
      .update(deliveries)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(deliveries.id, replay.deliveryId));
    await replayDelivery(setup.database.db, { ...request, confirmed: true }, CORRECTED);
    expect(await deliveriesOf(submissionId)).toHaveLength(3);
  });

  it("counts a replayed text against the replayer's TEAM_TEXTS_PER_HOUR, whoever sent it first", async () => {
    const failedText = async () => {
      const { id } = await storeEstimate(setup.database.db, { deliveries: [ON_CALL_TEXT] });
      await setDeliveryStatus(setup.database.db, id, "failed");
      const [text] = await deliveriesOf(id);
      if (!text) throw new Error("no text stored");
      return { submissionId: id, deliveryId: text.id };
    };
    const replayer = { id: (await addStaffUser(setup.database.db)).id, role: "staff" as const };
    const limits = { ...SENDING_LIMITS, TEAM_TEXTS_PER_HOUR: 2 };
    for (let text = 0; text < 2; text++) {
      await replayDelivery(setup.database.db, { ...(await failedText()), replayer }, limits);
    }
    const third = await failedText();
    const refused = replayDelivery(setup.database.db, { ...third, replayer }, limits);
    await expect(refused).rejects.toThrow(
      "You have sent 2 of the 2 texts allowed in an hour, replays included. Please wait and replay it later. Nothing was sent.",
    );
    await expect(refused.catch((error: WorkflowInputError) => error.status)).resolves.toBe(429);
    expect(await deliveriesOf(third.submissionId)).toHaveLength(1);
    // Another person's replays are theirs to count.
    await replayDelivery(setup.database.db, { ...third, replayer: admin }, limits);
    expect(await deliveriesOf(third.submissionId)).toHaveLength(2);
  });

  it("counts a replayed email or text as a message against the replayer's TEAM_MESSAGES_PER_MINUTE", async () => {
    const replayer = { id: (await addStaffUser(setup.database.db)).id, role: "staff" as const };
    const limits = { ...SENDING_LIMITS, TEAM_MESSAGES_PER_MINUTE: 2 };
    const outcomes: string[] = [];
    for (const delivery of [OFFICE_EMAIL, ON_CALL_TEXT, OFFICE_EMAIL]) {
      const { id } = await storeEstimate(setup.database.db, { deliveries: [delivery] });
      await setDeliveryStatus(setup.database.db, id, "failed");
      const [failed] = await deliveriesOf(id);
      if (!failed) throw new Error("no delivery stored");
      outcomes.push(
        await replayDelivery(setup.database.db, { submissionId: id, deliveryId: failed.id, replayer }, limits).then(
          () => "sent again",
          (error: Error) => error.message,
        ),
      );
    }
    expect(outcomes).toEqual([
      "sent again",
      "sent again",
      "You have sent 2 messages in the last minute, replays included, the most allowed. Please wait a minute and replay it again. Nothing was sent.",
    ]);
  });
});
