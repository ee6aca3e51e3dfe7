import { randomUUID } from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESTIMATE_WEBHOOK, storeEstimate } from "#tests/inbox-fixture";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { deliveries, submissions } from "~/services/db/schema.server";
import { createSmsSender } from "./sms-sender.server";
import { createDeliveryWorker } from "./worker.server";

const ON_CALL = "+18035550170";
const TECHNICIAN = "+18035550171";

let database: TestDatabase;
let twilio: WebhookReceiver;
let automation: WebhookReceiver;
beforeAll(async () => {
  [database, twilio, automation] = await Promise.all([
    createTestDatabase(),
    startWebhookReceiver(),
    startWebhookReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([twilio.close(), automation.close()]);
  await database.drop();
});

const text = (target: string, to: string) => ({
  channel: "sms" as const,
  target,
  destination: to,
  body: { text: `A text for ${target} ${randomUUID()}` },
});

const textsTo = (number: string) =>
  twilio.requests.filter((request) => new URLSearchParams(request.body).get("To") === number);

/** The worker as the app runs it, with the Twilio sender pointed at the stand-in, until every delivery ended. */
async function sendEverything(config: { TEXTS_PER_NUMBER_PER_DAY: number }) {
  const logger = pino({ level: "silent" });
  const worker = createDeliveryWorker({
    db: database.db,
    config: { DELIVERY_RETRY_SCHEDULE: ["0", "50ms"], WEBHOOK_ESTIMATE_URL: automation.url, ...config },
    logger,
    smsSender: createSmsSender(
      { accountSid: "AC1", authToken: "secret", from: "+18035550100", apiUrl: twilio.url },
      logger,
    ),
  });
  await waitFor("every delivery to end", async () => {
    await worker.runOnce();
    const rows = await database.db.select({ status: deliveries.status }).from(deliveries);
    return rows.every((row) => row.status === "delivered" || row.status === "failed");
  });
}

describe("texts to one number in a day (TEXTS_PER_NUMBER_PER_DAY)", () => {
  it("sends a number its day's texts, whatever sends them; past that each is not sent and says why, and its lead stands", async () => {
    // Six leads at once, each texting the on-call phone and posting to the automation, and a technician's text.
    const leads = [];
    for (let lead = 0; lead < 6; lead++) {
      leads.push(
        await storeEstimate(database.db, {
          deliveries: [{ ...ESTIMATE_WEBHOOK, destination: automation.url }, text("NEW_LEAD_SMS_TO", ON_CALL)],
        }),
      );
    }
    const message = await storeEstimate(database.db, { deliveries: [text("Mo Mobile", TECHNICIAN)] });
    await sendEverything({ TEXTS_PER_NUMBER_PER_DAY: 4 });

    expect(textsTo(ON_CALL)).toHaveLength(4);
    expect(textsTo(TECHNICIAN)).toHaveLength(1);
    const onCall = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.destination, ON_CALL))
      .orderBy(asc(deliveries.id));
    expect(onCall.map((row) => row.status).sort()).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "delivered",
      "failed",
      "failed",
    ]);
    for (const refused of onCall.filter((row) => row.status === "failed")) {
      expect(refused).toMatchObject({
        lastError: "This number has had 4 texts in the last 24 hours, the most one number gets",
        attemptCount: 1,
      });
    }
    // The leads themselves stand, and every one reached the automation.
    const ids = [...leads, message].map((lead) => lead.id);
    expect(await database.db.select().from(submissions).where(inArray(submissions.id, ids))).toHaveLength(7);
    expect(automation.requests).toHaveLength(6);

    // A text that Twilio refused is not counted in the day: one more may go.
    twilio.respondWith({ status: 400, headers: { "content-type": "application/json" }, body: '{"code":21211}' });
    const next = await storeEstimate(database.db, { deliveries: [text("NEW_LEAD_SMS_TO", TECHNICIAN)] });
    await sendEverything({ TEXTS_PER_NUMBER_PER_DAY: 2 });
    const after = await storeEstimate(database.db, { deliveries: [text("NEW_LEAD_SMS_TO", TECHNICIAN)] });
    await sendEverything({ TEXTS_PER_NUMBER_PER_DAY: 2 });
    const statuses = await database.db
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(inArray(deliveries.submissionId, [next.id, after.id]))
      .orderBy(asc(deliveries.id));
    expect(statuses.map((row) => row.status)).toEqual(["failed", "delivered"]);
    expect(textsTo(TECHNICIAN)).toHaveLength(3);
  });
});
