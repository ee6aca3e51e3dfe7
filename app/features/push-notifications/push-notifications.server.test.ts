import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webPush from "web-push";
import { capturingLogger } from "#tests/capturing-logger";
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
import { deliveryFailureAcknowledgements, pushSubscriptions, staffUsers } from "~/services/db/schema.server";
import { FORM_TYPE_FIELD, PUSH_INTENTS } from "./push-schema";
import { MOST_DEVICES_PER_PERSON, pushFormChoices, pushSettingsAction, subscribeDevice } from "./push-settings.server";

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

/** The app's settings with the tests' loopback push service named as a self-hosted one. */
const allowingPushService = () => contextFor({ PUSH_SERVICE_ALLOWED_HOSTS: pushService.host });

/** What the settings page posts to turn notifications on for a device. */
function subscribeForm(subscription: TestSubscription, forms: string[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(subscription)) form.set(name, value);
  for (const type of forms) form.append(FORM_TYPE_FIELD, type);
  return form;
}

/** A person's device subscribed as the settings page does it, to the forms given. */
async function subscribedDevice(user: { id: number; displayName: string }, role: "admin" | "staff", forms: string[]) {
  const subscription: TestSubscription = await pushService.newSubscription();
  const form = subscribeForm(subscription, forms);
  const result = await subscribeDevice(database.db, { ...user, role }, form, ANDROID, allowingPushService().config);
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
  const context = allowingPushService();
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

  it("refuses a plain http push address unless an admin named its host", async () => {
    const user = await addStaffUser(database.db, "staff");
    const form = subscribeForm(await pushService.newSubscription(), ["application"]);
    const result = await subscribeDevice(database.db, { ...user, role: "staff" }, form, ANDROID, contextFor().config);
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

/** A TCP listener on loopback that counts the connections made to it: a port the server must never be made to reach. */
async function loopbackListener() {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A device's keys with another push address, as someone signed in could post them. */
async function subscriptionAt(endpoint: string): Promise<TestSubscription> {
  return { ...(await pushService.newSubscription()), endpoint };
}

const storedDevicesOf = (userId: number) =>
  database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

/** The settings page's button on one of the person's devices (Send a test notification, Remove). */
function deviceButton(
  user: { id: number; displayName: string },
  intent: string,
  endpoint: string,
  context = allowingPushService(),
) {
  const form = new FormData();
  form.set("endpoint", endpoint);
  return pushSettingsAction(context, { ...user, role: "admin" }, intent, form, ANDROID);
}

describe("push addresses: a browser push service on the internet, never the server's own network", () => {
  it("refuses a push address on this machine, by address or by name, and never connects to it", async () => {
    const listener = await loopbackListener();
    try {
      const user = await addStaffUser(database.db, "staff");
      for (const host of ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]", "2130706433", "127.1"]) {
        const form = subscribeForm(await subscriptionAt(`https://${host}:${listener.port}/push/1`), ["application"]);
        const result = await subscribeDevice(
          database.db,
          { ...user, role: "staff" },
          form,
          ANDROID,
          contextFor().config,
        );
        expect(result, host).toMatchObject({
          status: "error",
          message: expect.stringContaining("not a browser push service on the internet"),
        });
      }
      expect(await storedDevicesOf(user.id)).toEqual([]);
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it("refuses private, shared, link-local, unique-local, multicast and cloud metadata addresses", async () => {
    const user = await addStaffUser(database.db, "staff");
    for (const host of [
      "10.0.0.5",
      "172.16.4.2",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.169.254",
      "[fd00:ec2::254]",
      "[fe80::1]",
      "224.0.0.251",
      "0.0.0.0",
      "[::ffff:192.168.1.1]",
    ]) {
      const form = subscribeForm(await subscriptionAt(`https://${host}/push/1`), ["application"]);
      const result = await subscribeDevice(database.db, { ...user, role: "staff" }, form, ANDROID, contextFor().config);
      expect(result.status, host).toBe("error");
    }
    expect(await storedDevicesOf(user.id)).toEqual([]);
  });

  it("sends nothing to a push address on this machine stored before, by address or by name, and removes it", async () => {
    const listener = await loopbackListener();
    const admin = await addStaffUser(database.db, "admin");
    // As a subscribe before the addresses were checked stored them, or a name that resolves here only now.
    const stored = [
      await subscriptionAt(`https://127.0.0.1:${listener.port}/push/stored`),
      await subscriptionAt(`https://localhost:${listener.port}/push/stored`),
      await subscriptionAt(`http://127.0.0.1:${listener.port}/push/stored`),
    ];
    const storeDevices = () =>
      database.db
        .insert(pushSubscriptions)
        .values(
          stored.map((one) => ({ ...one, userId: admin.id, deviceName: "Android phone", formTypes: ["estimate"] })),
        );
    await storeDevices();
    const worker = startWorker();
    try {
      const { submission } = await submitLead();
      for (const { endpoint } of stored) {
        const push = await failedPush(submission.reference, endpoint);
        expect(push, endpoint).toMatchObject({
          attemptCount: 1,
          lastError: expect.stringMatching(/^The device's push address is not .*; its subscription was removed$/),
        });
        // Removed like a device that is gone, so that each lead is not one more alert for it.
        expect(await acknowledgementsOf(push.id)).toEqual([{ by: "device gone" }]);
      }
      expect(await storedDevicesOf(admin.id)).toEqual([]);

      await storeDevices();
      for (const { endpoint } of stored) {
        const answer = await deviceButton(admin, PUSH_INTENTS.test, endpoint);
        expect(answer, endpoint).toMatchObject({
          status: "error",
          message: expect.stringMatching(/^The test notification did not go out: The device's push address is not/),
        });
      }
      expect(await storedDevicesOf(admin.id)).toEqual([]);
      expect(listener.connections()).toBe(0);
    } finally {
      await Promise.all([worker.stop(), listener.close()]);
    }
  });

  it("pushes to a self-hosted push service an admin named, and words a failed test without what the connection met", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const phone = await subscribedDevice(admin, "admin", ["estimate"]);
    expect(await deviceButton(admin, PUSH_INTENTS.test, phone.endpoint)).toMatchObject({ status: "success" });
    expect(pushService.received.filter((push) => push.endpoint === phone.endpoint)).toMatchObject([
      { message: { title: "Test notification" } },
    ]);

    // A named service that is down: the answer says so, not which socket error it met (the log has that).
    const closed = await loopbackListener();
    await closed.close();
    const down = await subscriptionAt(`http://127.0.0.1:${closed.port}/push/down`);
    await database.db
      .insert(pushSubscriptions)
      .values({ ...down, userId: admin.id, deviceName: "Android phone", formTypes: ["estimate"] });
    const log = capturingLogger();
    const allowingBoth = Object.assign(
      contextFor({ PUSH_SERVICE_ALLOWED_HOSTS: `${pushService.host},127.0.0.1:${closed.port}` }),
      { logger: log.logger },
    );
    const answer = await deviceButton(admin, PUSH_INTENTS.test, down.endpoint, allowingBoth);
    expect(answer).toMatchObject({
      status: "error",
      message:
        "The push service did not take the test notification. Check that the device is online, then try again in a few minutes.",
    });
    expect(log.lines.join("")).toMatch(/"error":"ECONNREFUSED".*"msg":"test notification not sent"/);
  });

  it(`turns notifications on for at most ${MOST_DEVICES_PER_PERSON} devices a person, and says how to make room`, async () => {
    const user = await addStaffUser(database.db, "staff");
    const devices = [];
    for (let count = 0; count < MOST_DEVICES_PER_PERSON; count++) {
      devices.push(await subscribedDevice(user, "staff", ["application"]));
    }
    const sixth = subscribeForm(await pushService.newSubscription(), ["application"]);
    const subscribe = (form: FormData) =>
      subscribeDevice(database.db, { ...user, role: "staff" }, form, ANDROID, allowingPushService().config);
    expect(await subscribe(sixth)).toEqual({
      intent: PUSH_INTENTS.subscribe,
      status: "error",
      message: `You have notifications on ${MOST_DEVICES_PER_PERSON} devices, the most one person may have. Remove one under Your devices below, then turn notifications on here again.`,
    });
    expect(await storedDevicesOf(user.id)).toHaveLength(MOST_DEVICES_PER_PERSON);
    // A device already on may change its forms.
    const [first, second] = devices;
    expect(await subscribe(subscribeForm(first as TestSubscription, ["application", "job-request"]))).toMatchObject({
      status: "success",
    });
    // Removing one makes room.
    expect(
      await pushSettingsAction(
        allowingPushService(),
        { ...user, role: "staff" },
        PUSH_INTENTS.remove,
        subscribeForm(second as TestSubscription, []),
        ANDROID,
      ),
    ).toMatchObject({ status: "success" });
    expect(await subscribe(sixth)).toMatchObject({ status: "success" });
  });

  it("moves a known push address to another person only with the keys of the device that holds it", async () => {
    const owner = await addStaffUser(database.db, "admin");
    const other = await addStaffUser(database.db, "admin");
    const phone = await subscribedDevice(owner, "admin", ["estimate"]);
    const subscribeAsOther = (subscription: TestSubscription) =>
      subscribeDevice(
        database.db,
        { ...other, role: "admin" },
        subscribeForm(subscription, ["estimate"]),
        ANDROID,
        allowingPushService().config,
      );

    // Someone who learnt the address (an admin sees it as a delivery's destination), with keys of their own.
    const taken = await subscribeAsOther(await subscriptionAt(phone.endpoint));
    expect(taken).toEqual({
      intent: PUSH_INTENTS.subscribe,
      status: "error",
      message:
        "Another person's device gets notifications at this push address, so nothing was changed. To move that device to you, turn notifications on from the device itself.",
    });
    const [kept] = await database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    expect(kept).toMatchObject({ userId: owner.id, p256dh: phone.p256dh, auth: phone.auth });

    // The device itself, signed in as the other person: its browser gives the same keys.
    expect(await subscribeAsOther(phone)).toMatchObject({ status: "success" });
    const [moved] = await database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    expect(moved).toMatchObject({ userId: other.id });
  });
});
