import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertInboxSubmission, SENDING_LIMITS, setDeliveryStatus, storeEstimate } from "#tests/inbox-fixture";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { newWebhookId } from "~/outbox/submission-store.server";
import type { DeliveryChannel, DeliveryStatus } from "~/services/db/schema.server";
import { deliveries, deliveryFailureAcknowledgements } from "~/services/db/schema.server";
import { acknowledgeFailedDeliveries, loadInboxAlerts } from "./inbox-alerts.server";
import { replayDelivery } from "./replay-delivery.server";

const config = { INBOX_ALERT_AFTER: 24 * 3_600_000 };
const URLS = { WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate", ...SENDING_LIMITS };

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(() => database.drop());

const failedAlert = async () => (await loadInboxAlerts(database.db, config))[0];

/** A team message to one person, with the deliveries of it in the states given, as the worker left them. */
async function teamMessageTo(
  person: { name: string; email: string; mobile: string },
  sends: ReadonlyArray<{ channel: DeliveryChannel; status: DeliveryStatus }>,
) {
  const message = await insertInboxSubmission(database.db, {
    type: "team-message",
    payload: { subject: "Safety meeting", body: "7am", recipients: [], sentAt: new Date().toISOString() },
  });
  for (const send of sends) {
    await database.db.insert(deliveries).values({
      submissionId: message.id,
      webhookId: newWebhookId(),
      channel: send.channel,
      target: person.name,
      destination: send.channel === "email" ? person.email : person.mobile,
      body: {},
      status: send.status,
    });
  }
  return message;
}

describe("the dashboard's failed-delivery alert", () => {
  it("no longer counts a failure once a replay sends its message again, and counts the replay if it fails too", async () => {
    // An admin: the second replay sends again a message that was delivered.
    const actor = await addStaffUser(database.db, "admin");
    const estimate = await storeEstimate(database.db);
    await setDeliveryStatus(database.db, estimate.id, "failed");
    const [failed] = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, estimate.id));
    if (!failed) throw new Error("no delivery stored");
    expect((await failedAlert())?.message).toBe("Failed deliveries: 1 webhook.");

    const replay = await replayDelivery(
      database.db,
      { submissionId: estimate.id, deliveryId: failed.id, replayer: actor },
      URLS,
    );
    expect(await loadInboxAlerts(database.db, config)).toEqual([]);

    // Delivered by the replay, a day ago: an admin may send it again.
    await database.db
      .update(deliveries)
      .set({ status: "delivered", createdAt: sql`now() - interval '25 hours'` })
      .where(eq(deliveries.id, replay.deliveryId));
    expect(await loadInboxAlerts(database.db, config)).toEqual([]);

    const again = await replayDelivery(
      database.db,
      { submissionId: estimate.id, deliveryId: replay.deliveryId, replayer: actor, confirmed: true },
      URLS,
    );
    await database.db.update(deliveries).set({ status: "failed" }).where(eq(deliveries.id, again.deliveryId));
    expect((await failedAlert())?.message).toBe("Failed deliveries: 1 webhook.");
  });

  it("counts a person once per channel, however many of their deliveries failed", async () => {
    const dana = { name: "Dana Reyes", email: "dana@example.com", mobile: "+18035550123" };
    await teamMessageTo(dana, [
      { channel: "email", status: "failed" },
      { channel: "sms", status: "failed" },
    ]);
    await teamMessageTo({ ...dana, email: "Dana@Example.com" }, [
      { channel: "email", status: "failed" },
      { channel: "sms", status: "failed" },
    ]);
    await teamMessageTo(dana, [{ channel: "email", status: "failed" }]);
    await teamMessageTo({ name: "Lee Park", email: "lee@example.com", mobile: "+18035550124" }, [
      { channel: "email", status: "failed" },
      { channel: "sms", status: "delivered" },
    ]);
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed", "failed", "delivered"] });

    expect(await failedAlert()).toEqual({
      message: "Failed deliveries: texts to 1 person, emails to 2 people, 2 webhooks.",
      linkText: "See the submissions with a failed delivery",
      href: "/admin/inbox?delivery=failed",
      acknowledge: expect.any(String),
    });
  });

  it("stops raising the alert for the failures acknowledged, with who and when, and raises it for a new one", async () => {
    const staff = await addStaffUser(database.db);
    const first = await insertInboxSubmission(database.db, { deliveryStatuses: ["failed", "delivered"] });
    const seen = (await failedAlert())?.acknowledge;
    if (seen === undefined) throw new Error("the alert cannot be acknowledged");

    const acknowledging = { staffUserId: staff.id, username: staff.username, seen };
    expect(await acknowledgeFailedDeliveries(database.db, acknowledging)).toBe("acknowledged");
    expect(await loadInboxAlerts(database.db, config)).toEqual([]);
    const [failedOfFirst] = await database.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(eq(deliveries.submissionId, first.id))
      .orderBy(deliveries.id);
    const records = await database.db.select().from(deliveryFailureAcknowledgements);
    expect(records).toEqual([
      {
        deliveryId: failedOfFirst?.id,
        staffUserId: staff.id,
        username: staff.username,
        acknowledgedAt: expect.any(Date),
      },
    ]);
    expect(await acknowledgeFailedDeliveries(database.db, acknowledging)).toBe("nothing");

    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });
    expect((await failedAlert())?.message).toBe("Failed deliveries: 1 webhook.");
  });

  it("acknowledges nothing when more deliveries failed since the alert was shown", async () => {
    const staff = await addStaffUser(database.db);
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });
    const seen = (await failedAlert())?.acknowledge ?? "";
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });

    expect(
      await acknowledgeFailedDeliveries(database.db, { staffUserId: staff.id, username: staff.username, seen }),
    ).toBe("changed");
    expect(await database.db.select().from(deliveryFailureAcknowledgements)).toEqual([]);
    expect((await failedAlert())?.message).toBe("Failed deliveries: 2 webhooks.");
  });
});
