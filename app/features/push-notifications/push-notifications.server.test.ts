import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webPush from "web-push";
import { validEstimate } from "#tests/estimate-fixture";
import { formActionHarness } from "#tests/form-action";
import { type PushService, startPushService, type TestSubscription } from "#tests/push-service";
import { addStaffUser } from "#tests/staff";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { company } from "~/content/company";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { deliveryFailureAcknowledgements, pushSubscriptions, staffUsers } from "~/server/db/schema.server";
import { FORM_TYPE_FIELD } from "./push-schema";
import { pushFormChoices, subscribeDevice } from "./push-settings.server";

const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36";
const DANA = { ...validEstimate, firstName: "Dana", lastName: "Reyes", city: "Sumter", phone: "(803) 555-0142" };

let database: TestDatabase;
let pushService: PushService;
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  [database, pushService] = await Promise.all([createTestDatabase(), startPushService()]);
});
afterAll(() => Promise.all([pushService.close(), database.drop()]));

const { contextFor, post } = formActionHarness({
  path: "/learnmore",
  database: () => database.db,
  env: {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:it@example.com",
  },
});

/** A person's device subscribed as the settings page does it, to the forms given. */
async function subscribedDevice(user: { id: number; displayName: string }, role: "admin" | "staff", forms: string[]) {
  const subscription: TestSubscription = await pushService.newSubscription();
  const form = new FormData();
  for (const [name, value] of Object.entries(subscription)) form.set(name, value);
  for (const type of forms) form.append(FORM_TYPE_FIELD, type);
  const result = await subscribeDevice(database.db, { ...user, role }, form, ANDROID, "http://127.0.0.1:3000");
  expect(result.status).toBe("success");
  return subscription;
}

async function submitLead(env: Record<string, string> = {}) {
  const response = await submitEstimate(post({ ...DANA, submissionKey: crypto.randomUUID() }), contextFor(env));
  return storedByReference(database.db, (response.data as { reference: string }).reference);
}

/** A device's push of a submission, once it has ended failed. */
function failedPush(reference: string, endpoint: string) {
  return waitFor("the push to end", async () => {
    const { deliveries } = await storedByReference(database.db, reference);
    const delivery = deliveries.find((candidate) => candidate.destination === endpoint);
    return delivery?.status === "failed" ? delivery : undefined;
  });
}

/** Who acknowledged a failed delivery. */
function acknowledgementsOf(deliveryId: number) {
  return database.db
    .select({ by: deliveryFailureAcknowledgements.username })
    .from(deliveryFailureAcknowledgements)
    .where(eq(deliveryFailureAcknowledgements.deliveryId, deliveryId));
}

function startWorker() {
  const context = contextFor();
  const worker = createDeliveryWorker({ db: database.db, config: context.config, logger: pino({ level: "silent" }) });
  worker.start();
  return worker;
}

describe("push notifications of new leads", () => {
  it("offers admins the estimate requests ticked, and staff only the forms they may read", () => {
    expect(pushFormChoices("admin")).toContainEqual({ type: "estimate", label: "Estimate request", onByDefault: true });
    expect(pushFormChoices("staff").find(({ type }) => type === "estimate")?.onByDefault).toBe(false);
    expect(pushFormChoices("staff").map(({ type }) => type)).not.toContain("peer-review");
  });

  it("pushes a new estimate request, encrypted and signed, to each device that chose it and to no other", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const colleague = await addStaffUser(database.db, "staff");
    const phone = await subscribedDevice(admin, "admin", ["estimate"]);
    const applicationsOnly = await subscribedDevice(colleague, "staff", ["application"]);
    const worker = startWorker();
    try {
      const submittedAt = Date.now();
      const { submission, deliveries } = await submitLead();
      const pushes = deliveries.filter((delivery) => delivery.channel === "push");
      expect(pushes.map((delivery) => [delivery.destination, delivery.target])).toEqual([
        [phone.endpoint, `${admin.displayName.split(" ")[0]}'s Android phone`],
      ]);
      const received = await waitFor(
        "the push",
        () => pushService.received.find((push) => push.endpoint === phone.endpoint),
        10_000,
      );
      expect(received.receivedAt - submittedAt).toBeLessThan(10_000);
      expect(received.message).toEqual({
        title: "New estimate request: Dana Reyes, Sumter, commercial",
        body: `Prefers Phone call, Morning. Reference ${submission.reference}.`,
        call: "(803) 555-0142",
        url: `/admin/inbox/${submission.id}`,
        tag: submission.reference,
      });
      expect(received.ttl).toBeGreaterThan(0);
      await waitFor("the delivery recorded as delivered", async () => {
        const { deliveries: after } = await storedByReference(database.db, submission.reference);
        return after.find((delivery) => delivery.channel === "push")?.status === "delivered";
      });
      expect(pushService.received.filter((push) => push.endpoint === applicationsOnly.endpoint)).toEqual([]);
      expect(pushService.refused).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("removes a device the push service says is gone, and ends its delivery without retrying", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const phone = await subscribedDevice(admin, "admin", ["estimate"]);
    pushService.forget(phone.endpoint);
    const worker = startWorker();
    try {
      const { submission } = await submitLead();
      const push = await failedPush(submission.reference, phone.endpoint);
      expect(push).toMatchObject({
        attemptCount: 1,
        lastError: expect.stringContaining("no longer takes notifications"),
      });
      const left = await database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions);
      expect(left.map(({ endpoint }) => endpoint)).not.toContain(phone.endpoint);
      // A phone that left is nothing to act on: no dashboard alert, no alert text.
      const acknowledged = await acknowledgementsOf(push.id);
      expect(acknowledged).toEqual([{ by: "device gone" }]);
    } finally {
      await worker.stop();
    }
  });

  it("sends nothing to a device turned off after the lead was stored, and ends its push acknowledged", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const phone = await subscribedDevice(admin, "admin", ["estimate"]);
    const { submission } = await submitLead();
    // Turned off on Your settings before the worker came to the push: its keys are read as the push is claimed.
    await database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint));
    const worker = startWorker();
    try {
      const push = await failedPush(submission.reference, phone.endpoint);
      expect(push).toMatchObject({ attemptCount: 1, lastError: expect.stringContaining("(turned off)") });
      expect(pushService.received.filter((one) => one.endpoint === phone.endpoint)).toEqual([]);
      const acknowledged = await acknowledgementsOf(push.id);
      expect(acknowledged).toEqual([{ by: "device gone" }]);
    } finally {
      await worker.stop();
    }
  });

  it("in quiet hours texts the on-call phone and pushes to no device", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const phone = await subscribedDevice(admin, "admin", ["estimate"]);
    const clock = DateTime.now().setZone(company.timeZone);
    const quiet = `${clock.minus({ hours: 1 }).toFormat("HH:mm")}-${clock.plus({ hours: 1 }).toFormat("HH:mm")}`;
    const twilio = { TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+18035550100" };
    const onCall = { ...twilio, NEW_LEAD_SMS_TO: "(803) 555-0111" };

    const night = await submitLead({ ...onCall, NEW_LEAD_QUIET_HOURS: quiet });
    expect(night.deliveries.map((delivery) => [delivery.channel, delivery.target, delivery.destination])).toEqual([
      ["sms", "NEW_LEAD_SMS_TO", "+18035550111"],
    ]);
    expect(night.deliveries[0]?.body).toEqual({
      text: `New estimate request ${night.submission.reference}: Dana Reyes, Sumter, commercial. Call (803) 555-0142.`,
    });
    const day = await submitLead(onCall);
    const channelsTo = (destination: string) =>
      day.deliveries.filter((delivery) => delivery.destination === destination).map(({ channel }) => channel);
    expect([...channelsTo(phone.endpoint), ...channelsTo("+18035550111")]).toEqual(["push", "sms"]);
  });

  it("refuses a plain http push address when the site is https, so no one can make it post inside its network", async () => {
    const user = await addStaffUser(database.db, "staff");
    const form = new FormData();
    for (const [name, value] of Object.entries(await pushService.newSubscription())) form.set(name, value);
    form.append(FORM_TYPE_FIELD, "application");
    const result = await subscribeDevice(database.db, { ...user, role: "staff" }, form, ANDROID, "https://example.com");
    expect(result).toMatchObject({ status: "error", message: "The browser gave a push address that is not https." });
    const stored = await database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(stored).toEqual([]);
  });

  it("removes a person's devices with the person", async () => {
    const admin = await addStaffUser(database.db, "admin");
    await subscribedDevice(admin, "admin", ["estimate"]);
    await database.db.delete(staffUsers).where(eq(staffUsers.id, admin.id));
    expect(await database.db.$count(pushSubscriptions, eq(pushSubscriptions.userId, admin.id))).toBe(0);
  });
});
