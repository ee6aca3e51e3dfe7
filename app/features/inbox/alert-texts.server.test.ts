import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInboxSubmission, SENDING_LIMITS, setDeliveryStatus, storeEstimate } from "#tests/inbox-fixture";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { newWebhookId } from "~/outbox/submission-store.server";
import { loadConfig } from "~/services/config.server";
import { alertTexts, deliveries } from "~/services/db/schema.server";
import { ALERT_SMS_TARGET, queueAlertTexts } from "./alert-texts.server";
import { loadInboxAlerts } from "./inbox-alerts.server";
import { replayDelivery } from "./replay-delivery.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const config = loadConfig({
  ALERT_SMS_TO: "(803) 555-0199",
  TWILIO_ACCOUNT_SID: "AC1",
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_FROM: "+18035550100",
  INBOX_ALERT_AFTER: "2h",
  SITE_URL: "https://office.example.com",
});
const ESTIMATE_URLS = { WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate", ...SENDING_LIMITS };
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

const alertTextDeliveries = () =>
  database.db.select().from(deliveries).where(eq(deliveries.target, ALERT_SMS_TARGET)).orderBy(deliveries.id);

describe("alert texts to ALERT_SMS_TO", () => {
  it("texts each alert once, with its reference and inbox link, however often and from however many instances", async () => {
    const failed = await insertInboxSubmission(database.db, { deliveryStatuses: ["failed", "delivered"] });
    const waiting = await insertInboxSubmission(database.db, { createdAt: hoursAgo(3) });
    await insertInboxSubmission(database.db, { createdAt: hoursAgo(1) });
    await insertInboxSubmission(database.db, { createdAt: hoursAgo(3), status: "Contacted" });

    // Two instances at once, then again later: the unique alert key lets one of them queue each text.
    const runs = await Promise.all([queueAlertTexts(database.db, config), queueAlertTexts(database.db, config)]);
    expect(runs.flat().sort()).toHaveLength(2);
    expect(await queueAlertTexts(database.db, config)).toEqual([]);

    const texts = await alertTextDeliveries();
    expect(texts.map((text) => [text.channel, text.destination, text.status, text.submissionId])).toEqual(
      expect.arrayContaining([
        ["sms", "+18035550199", "pending", failed.id],
        ["sms", "+18035550199", "pending", waiting.id],
      ]),
    );
    const bodies = texts.map((text) => (text.body as { text: string }).text).sort();
    expect(bodies).toEqual(
      [
        `Alert: a webhook for ${failed.reference} failed (WEBHOOK_TARGET_0). https://office.example.com/admin/inbox/${failed.id}`,
        `Alert: estimate request ${waiting.reference} has waited more than 2 hours unhandled. https://office.example.com/admin/inbox/${waiting.id}`,
      ].sort(),
    );
    expect(await database.db.select().from(alertTexts)).toHaveLength(2);
  });

  it("does not text the failure of an alert text, and the banner counts failed texts and emails", async () => {
    await database.db.update(deliveries).set({ status: "failed" }).where(eq(deliveries.target, ALERT_SMS_TARGET));
    const message = await insertInboxSubmission(database.db, {
      type: "team-message",
      payload: { subject: "s", body: "b", recipients: [], sentAt: new Date().toISOString() },
    });
    await database.db.insert(deliveries).values({
      submissionId: message.id,
      webhookId: newWebhookId(),
      channel: "email",
      target: "Emma Email",
      destination: "emma@example.com",
      body: {},
      status: "failed",
    });
    const queued = await queueAlertTexts(database.db, config);
    expect(queued).toHaveLength(1);
    const texts = (await alertTextDeliveries()).filter((row) => row.submissionId === message.id);
    expect(texts.map((row) => row.body)).toEqual([
      {
        text: `Alert: an email for ${message.reference} failed (Emma Email). https://office.example.com/admin/inbox/${message.id}`,
      },
    ]);
    // The two alert texts went to one on-call number: one person.
    const [banner] = await loadInboxAlerts(database.db, config);
    expect(banner?.message).toBe("Failed deliveries: texts to 1 person, emails to 1 person, 1 webhook.");
  });

  it("texts a failure once: its replay failing too is the same failure, and one already sent again is not texted", async () => {
    const actor = await addStaffUser(database.db);
    const replayed = await storeEstimate(database.db);
    const resent = await storeEstimate(database.db);
    await setDeliveryStatus(database.db, replayed.id, "failed");
    await setDeliveryStatus(database.db, resent.id, "failed");
    const [first] = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, replayed.id));
    const [resentFailure] = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, resent.id));
    if (!first || !resentFailure) throw new Error("no delivery stored");
    await replayDelivery(
      database.db,
      { submissionId: resent.id, deliveryId: resentFailure.id, replayer: actor },
      ESTIMATE_URLS,
    );
    expect(await queueAlertTexts(database.db, config)).toEqual([`failed-delivery:${first.webhookId}`]);

    const replay = await replayDelivery(
      database.db,
      { submissionId: replayed.id, deliveryId: first.id, replayer: actor },
      ESTIMATE_URLS,
    );
    await database.db.update(deliveries).set({ status: "failed" }).where(eq(deliveries.id, replay.deliveryId));
    expect(await queueAlertTexts(database.db, config)).toEqual([]);
    const texts = await alertTextDeliveries();
    expect(texts.filter((text) => text.submissionId === replayed.id)).toHaveLength(1);
    expect(texts.filter((text) => text.submissionId === resent.id)).toEqual([]);
  });

  it("texts nothing without ALERT_SMS_TO", async () => {
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });
    expect(await queueAlertTexts(database.db, { ...config, ALERT_SMS_TO: undefined })).toEqual([]);
  });
});
