import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWebhookId } from "~/features/deliveries/submission-store.server";
import { loadConfig } from "~/server/config.server";
import { alertTexts, deliveries } from "~/server/db/schema.server";
import { insertInboxSubmission } from "../../../tests/support/inbox-fixture";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { ALERT_SMS_TARGET, queueAlertTexts } from "./alert-texts.server";
import { loadInboxAlerts } from "./inbox-alerts.server";

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
        `Alert: a delivery of ${failed.reference} failed (WEBHOOK_TARGET_0). https://office.example.com/admin/inbox/${failed.id}`,
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
    const [banner] = await loadInboxAlerts(database.db, config);
    expect(banner?.message).toBe("4 deliveries have failed: 2 texts, 1 email, 1 webhook.");
  });

  it("texts nothing without ALERT_SMS_TO", async () => {
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });
    expect(await queueAlertTexts(database.db, { ...config, ALERT_SMS_TO: undefined })).toEqual([]);
  });
});
