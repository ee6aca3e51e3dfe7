import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSmtpReceiver } from "#tests/smtp-receiver";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { connectDatabase, type Database } from "~/services/db/database.server";
import * as schema from "~/services/db/schema.server";
import { deliveries, deliveryAttempts, submissions } from "~/services/db/schema.server";
import { createEmailSender } from "./email-sender.server";
import { type OutgoingDelivery, storeSubmission } from "./submission-store.server";
import type { WebhookUrls } from "./targets.server";
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from "./worker.server";

const logger = pino({ level: "silent" });
const SHORT_SCHEDULE = ["0", "100ms", "100ms"];
/** Enough tries for a receiver to come back within the test. */
const PATIENT_SCHEDULE = ["0", ...Array.from({ length: 200 }, () => "100ms")];
const DEADLINE_MS = 20_000;

function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Calls `check` until it returns something other than undefined or false, or fails after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Opens a few connections in each pool up front, so that the workers' first claims run at the same time. */
async function warmUp(connections: { pool: { query: (text: string) => Promise<unknown> } }[]) {
  await Promise.all(
    connections.flatMap((connection) => Array.from({ length: 3 }, () => connection.pool.query("SELECT 1"))),
  );
}

describe("delivery worker", () => {
  let database: TestDatabase;
  let db: Database;
  let cleanups: (() => Promise<unknown> | unknown)[];

  beforeEach(async () => {
    cleanups = [];
    database = await createTestDatabase();
    db = database.db;
    cleanups.push(() => database.drop());
  });

  afterEach(async () => {
    // Last registered first: workers stop before their receivers and pools go, the database goes last.
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function webhookReceiver(): Promise<WebhookReceiver> {
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    return receiver;
  }

  /** A worker whose configuration sets the webhook targets `urls` (none unless told). */
  function worker(
    overrides: Partial<Omit<DeliveryWorkerOptions, "config">> & {
      schedule?: string[];
      secret?: string;
      urls?: WebhookUrls;
    } = {},
  ): DeliveryWorker {
    const { schedule, secret, urls, ...options } = overrides;
    const created = createDeliveryWorker({
      db,
      config: { DELIVERY_RETRY_SCHEDULE: schedule ?? SHORT_SCHEDULE, WEBHOOK_SECRET: secret, ...urls },
      logger,
      pollIntervalMs: 50,
      ...options,
    });
    cleanups.push(() => created.stop());
    return created;
  }

  const ESTIMATE_CONTACT = { name: "Ada", email: "", phone: "" };

  /** The configuration that points the estimate webhook at `receiver`. */
  const estimatesTo = (receiver: { url: string }, path = ""): WebhookUrls => ({
    WEBHOOK_ESTIMATE_URL: `${receiver.url}${path}`,
  });

  function webhook(url: string, body: unknown = { event: "estimate.created" }): OutgoingDelivery {
    return { channel: "webhook", target: "WEBHOOK_ESTIMATE_URL", destination: url, body };
  }

  /** Stores a submission with the given deliveries and returns their rows. */
  async function store(outgoing: OutgoingDelivery[], spamReason?: string) {
    const stored = await storeSubmission(db, {
      definition: { type: "estimate", referencePrefix: "EST", statuses: ["New"], contact: () => ESTIMATE_CONTACT },
      submissionKey: randomUUID(),
      payload: { name: "Ada" },
      spamReason,
      deliveries: () => outgoing,
    });
    return db.select().from(deliveries).where(eq(deliveries.submissionId, stored.id)).orderBy(asc(deliveries.id));
  }

  async function storeOne(outgoing: OutgoingDelivery, spamReason?: string) {
    const [row] = await store([outgoing], spamReason);
    if (!row) throw new Error("no delivery stored");
    return row;
  }

  async function deliveryRow(id: number) {
    const [row] = await db.select().from(deliveries).where(eq(deliveries.id, id));
    if (!row) throw new Error(`delivery ${id} is gone`);
    return row;
  }

  function attemptsOf(id: number) {
    return db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, id))
      .orderBy(asc(deliveryAttempts.id));
  }

  /** Runs the worker until it claims something (a retry becomes due only after its delay). */
  function runUntilClaimed(target: DeliveryWorker) {
    return waitFor("the worker to claim a due delivery", async () => (await target.runOnce()) > 0);
  }

  describe("webhooks", () => {
    it("POSTs the stored JSON body byte for byte with Standard Webhooks headers that verify", async () => {
      const receiver = await webhookReceiver();
      const secret = newSecret();
      const body = {
        zeta: "last key first",
        event: "estimate.created",
        reference: "EST-7K3QX9",
        customer: { name: "Zoë O'Brien — ⚡", phone: "+1 555 0100", tags: ["panel", "ev-charger"] },
        amount: 1234.5,
        urgent: false,
        notes: null,
        html: '<script>alert("x")</script>\n\ttab',
      };
      const stored = await storeOne(webhook(`${receiver.url}hooks/estimate?source=test`, body));

      expect(await worker({ secret, urls: estimatesTo(receiver, "hooks/estimate?source=test") }).runOnce()).toBe(1);

      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      if (!request) throw new Error("no request");
      const [row] = await db.select({ body: deliveries.body }).from(deliveries).where(eq(deliveries.id, stored.id));
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/hooks/estimate?source=test");
      expect(request.body).toBe(JSON.stringify(row?.body));
      expect(JSON.parse(request.body)).toEqual(body);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["webhook-id"]).toBe(stored.webhookId);
      const timestamp = Number(request.headers["webhook-timestamp"]);
      expect(Number.isInteger(timestamp)).toBe(true);
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);

      const headers = {
        "webhook-id": String(request.headers["webhook-id"]),
        "webhook-timestamp": String(request.headers["webhook-timestamp"]),
        "webhook-signature": String(request.headers["webhook-signature"]),
      };
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(new Webhook(secret).verify(request.body, headers)).toEqual(body);
      // The signature really covers the secret, the body and the id.
      expect(() => new Webhook(newSecret()).verify(request.body, headers)).toThrow();
      expect(() => new Webhook(secret).verify(request.body.replace("1234.5", "1234.6"), headers)).toThrow();
      expect(() => new Webhook(secret).verify(request.body, { ...headers, "webhook-id": "msg_other" })).toThrow();

      const delivered = await deliveryRow(stored.id);
      expect(delivered).toMatchObject({ status: "delivered", attemptCount: 1, leaseExpiresAt: null, lastError: null });
      expect(delivered.deliveredAt).toBeInstanceOf(Date);
      const attempts = await attemptsOf(stored.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ httpStatus: 200, succeeded: true, error: null });
    });

    it("sends no webhook-signature header when no secret is configured", async () => {
      const receiver = await webhookReceiver();
      const stored = await storeOne(webhook(receiver.url));

      expect(await worker({ secret: undefined, urls: estimatesTo(receiver) }).runOnce()).toBe(1);

      const [request] = receiver.requests;
      expect(request?.headers["webhook-id"]).toBe(stored.webhookId);
      expect(request?.headers["webhook-timestamp"]).toMatch(/^\d+$/);
      expect(request?.headers).not.toHaveProperty("webhook-signature");
      expect((await deliveryRow(stored.id)).status).toBe("delivered");
    });

    it("keeps retrying while the receiver refuses connections and delivers everything once it is back", async () => {
      const receiver = await webhookReceiver();
      await receiver.stop();
      const stored = await Promise.all([1, 2, 3].map((n) => storeOne(webhook(`${receiver.url}hooks/${n}`))));
      const ids = stored.map((row) => row.id);

      const running = worker({ schedule: PATIENT_SCHEDULE, urls: estimatesTo(receiver) });
      running.start();
      await waitFor("two failed attempts of every delivery", async () => {
        const counts = await Promise.all(ids.map(async (id) => (await attemptsOf(id)).length));
        return counts.every((n) => n >= 2);
      });
      expect(receiver.requests).toHaveLength(0);

      await receiver.start();
      await waitFor("every delivery to be delivered", async () => {
        const rows = await Promise.all(ids.map(deliveryRow));
        return rows.every((row) => row.status === "delivered");
      });
      await running.stop();

      expect(receiver.requests.map((request) => request.headers["webhook-id"]).sort()).toEqual(
        stored.map((row) => row.webhookId).sort(),
      );
      for (const row of stored) {
        const attempts = await attemptsOf(row.id);
        const failed = attempts.slice(0, -1);
        expect(failed.length).toBeGreaterThanOrEqual(2);
        for (const attempt of failed) {
          expect(attempt.succeeded).toBe(false);
          expect(attempt.httpStatus).toBeNull();
          expect(attempt.error).toMatch(/ECONNREFUSED|ECONNRESET|closed/);
          expect(Number.isInteger(attempt.durationMs)).toBe(true);
          expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
          expect(attempt.startedAt).toBeInstanceOf(Date);
        }
        expect(failed.some((attempt) => attempt.error === "ECONNREFUSED")).toBe(true);
        expect(attempts.at(-1)).toMatchObject({ succeeded: true, httpStatus: 200, error: null });
        const delivered = await deliveryRow(row.id);
        expect(delivered.attemptCount).toBe(attempts.length);
        expect(delivered.lastError).toBeNull();
        expect(delivered.deliveredAt).toBeInstanceOf(Date);
      }
    });

    it("retries after a 500 and records both answers", async () => {
      const receiver = await webhookReceiver();
      receiver.respondWith({ status: 500, body: "boom", delayMs: 150 });
      const stored = await storeOne(webhook(receiver.url));
      const once = worker({ urls: estimatesTo(receiver) });

      expect(await once.runOnce()).toBe(1);
      const afterFailure = await deliveryRow(stored.id);
      expect(afterFailure).toMatchObject({
        status: "pending",
        lastError: "HTTP 500",
        deliveredAt: null,
        attemptCount: 1,
      });
      const [failedAttempt] = await attemptsOf(stored.id);
      // The schedule's second entry, 100ms, counted from the failed attempt.
      expect(afterFailure.nextAttemptAt.getTime() - (failedAttempt?.startedAt.getTime() ?? 0)).toBeGreaterThanOrEqual(
        100,
      );

      await runUntilClaimed(once);

      const attempts = await attemptsOf(stored.id);
      expect(attempts.map(({ httpStatus, succeeded, error }) => ({ httpStatus, succeeded, error }))).toEqual([
        { httpStatus: 500, succeeded: false, error: "HTTP 500" },
        { httpStatus: 200, succeeded: true, error: null },
      ]);
      // The duration is the time the receiver took to answer.
      expect(attempts[0]?.durationMs).toBeGreaterThanOrEqual(150);
      expect(attempts[0]?.durationMs).toBeLessThan(DEADLINE_MS);
      const delivered = await deliveryRow(stored.id);
      expect(delivered).toMatchObject({ status: "delivered", attemptCount: 2, lastError: null });
      expect(delivered.deliveredAt).toBeInstanceOf(Date);
      expect(receiver.requests.map((request) => request.headers["webhook-id"])).toEqual([
        stored.webhookId,
        stored.webhookId,
      ]);
      expect(receiver.requests[1]?.body).toBe(receiver.requests[0]?.body);
    });

    it("counts a redirect as a failure and does not follow it", async () => {
      const receiver = await webhookReceiver();
      const elsewhere = await webhookReceiver();
      receiver.setDefaultResponse({ redirect: `${elsewhere.url}moved` });
      const stored = await storeOne(webhook(receiver.url));

      expect(await worker({ urls: estimatesTo(receiver) }).runOnce()).toBe(1);

      expect(receiver.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
      const [attempt] = await attemptsOf(stored.id);
      expect(attempt).toMatchObject({ httpStatus: 302, succeeded: false, error: "HTTP 302" });
      expect(await deliveryRow(stored.id)).toMatchObject({
        status: "pending",
        lastError: "HTTP 302",
        deliveredAt: null,
      });
    });

    it("marks a delivery failed after the last retry and keeps it", async () => {
      const receiver = await webhookReceiver();
      receiver.setDefaultResponse({ status: 503, body: "down for maintenance" });
      const stored = await storeOne(webhook(receiver.url));
      const once = worker({ schedule: SHORT_SCHEDULE, urls: estimatesTo(receiver) });

      for (let attempt = 1; attempt <= SHORT_SCHEDULE.length; attempt++) {
        await runUntilClaimed(once);
        const row = await deliveryRow(stored.id);
        expect(row.attemptCount).toBe(attempt);
        expect(row.status).toBe(attempt < SHORT_SCHEDULE.length ? "pending" : "failed");
      }

      // Nothing is due any more.
      expect(await once.runOnce()).toBe(0);
      expect(receiver.requests).toHaveLength(SHORT_SCHEDULE.length);
      const failed = await deliveryRow(stored.id);
      expect(failed).toMatchObject({
        status: "failed",
        lastError: "HTTP 503",
        deliveredAt: null,
        leaseExpiresAt: null,
      });
      expect(await attemptsOf(stored.id)).toHaveLength(SHORT_SCHEDULE.length);
      expect(await db.$count(submissions, eq(submissions.id, failed.submissionId))).toBe(1);
    });

    it("never sends held (spam) deliveries", async () => {
      const receiver = await webhookReceiver();
      const spam = await storeOne(webhook(receiver.url, { name: "spam" }), "honeypot filled");
      const ham = await storeOne(webhook(receiver.url, { name: "ham" }));
      const running = worker({ urls: estimatesTo(receiver) });

      expect(await running.runOnce()).toBe(1);
      expect(await running.runOnce()).toBe(0);
      // A running worker too: it delivers what is stored after it started, and still skips the spam.
      running.start();
      const later = await storeOne(webhook(receiver.url, { name: "later" }));
      running.wake();
      await waitFor("the later delivery", async () => (await deliveryRow(later.id)).status === "delivered");
      await running.stop();

      expect(receiver.requests.map((request) => JSON.parse(request.body).name)).toEqual(["ham", "later"]);
      expect(await deliveryRow(ham.id)).toMatchObject({ status: "delivered" });
      expect(await deliveryRow(spam.id)).toMatchObject({ status: "held", attemptCount: 0, deliveredAt: null });
      expect(await attemptsOf(spam.id)).toEqual([]);
    });

    it("sends every attempt to the URL configured now, and keeps the stored one as history", async () => {
      const wrong = await webhookReceiver();
      const corrected = await webhookReceiver();
      wrong.setDefaultResponse({ status: 500 });
      const stored = await storeOne(webhook(wrong.url));

      // The first attempt, made before the operator noticed the setting was wrong.
      expect(await worker({ urls: estimatesTo(wrong) }).runOnce()).toBe(1);
      // The setting corrected (and the app restarted): the retry goes to the new URL.
      await runUntilClaimed(worker({ urls: estimatesTo(corrected) }));

      expect(wrong.requests).toHaveLength(1);
      expect(corrected.requests).toHaveLength(1);
      expect(corrected.requests[0]?.headers["webhook-id"]).toBe(stored.webhookId);
      expect(await deliveryRow(stored.id)).toMatchObject({ status: "delivered", destination: wrong.url });
      expect((await attemptsOf(stored.id)).map(({ destination, succeeded }) => ({ destination, succeeded }))).toEqual([
        { destination: wrong.url, succeeded: false },
        { destination: corrected.url, succeeded: true },
      ]);
    });

    it("holds a webhook whose target is no longer set, says why, and sends it once the target is set again", async () => {
      const receiver = await webhookReceiver();
      const stored = await storeOne(webhook(receiver.url));

      expect(await worker({ urls: {} }).runOnce()).toBe(1);
      expect(await deliveryRow(stored.id)).toMatchObject({
        status: "held",
        attemptCount: 0,
        lastError: "WEBHOOK_ESTIMATE_URL is not set, so it is held until it is set again",
      });
      expect(await attemptsOf(stored.id)).toEqual([]);
      expect(receiver.requests).toHaveLength(0);

      const configured = worker({ urls: estimatesTo(receiver) });
      configured.start();
      await waitFor("the held delivery", async () => (await deliveryRow(stored.id)).status === "delivered");
      await configured.stop();
      expect(receiver.requests.map((request) => request.headers["webhook-id"])).toEqual([stored.webhookId]);
      expect(await deliveryRow(stored.id)).toMatchObject({ attemptCount: 1, lastError: null });
    });
  });

  describe("with a slow target", () => {
    it("keeps claiming for the other targets while one target's sends hang", async () => {
      const slow = await webhookReceiver();
      slow.setDefaultResponse({ hang: true });
      const fast = await webhookReceiver();
      // The slow target's deliveries come first, as they would when it was stored to first.
      const slowOnes = await Promise.all(
        Array.from({ length: 31 }, (_, n) =>
          storeOne({ ...webhook(`${slow.url}slow/${n}`), target: "WEBHOOK_APPLICATION_URL" }),
        ),
      );
      const fastOnes = await Promise.all(Array.from({ length: 169 }, (_, n) => storeOne(webhook(`${fast.url}${n}`))));

      const running = worker({
        perTargetLimit: 5,
        maxInFlight: 25,
        urls: { WEBHOOK_APPLICATION_URL: slow.url, WEBHOOK_ESTIMATE_URL: fast.url },
      });
      running.start();
      await waitFor(
        "every fast delivery",
        async () =>
          (await db.$count(
            deliveries,
            and(eq(deliveries.target, "WEBHOOK_ESTIMATE_URL"), eq(deliveries.status, "delivered")),
          )) === fastOnes.length,
      );
      // All that while the slow target had its five sends held open, and no more.
      expect(slow.hangingCount()).toBe(5);
      expect(slow.requests).toHaveLength(5);
      const slowRows = await Promise.all(slowOnes.map((row) => deliveryRow(row.id)));
      expect(slowRows.filter((row) => row.status === "sending")).toHaveLength(5);
      expect(slowRows.filter((row) => row.status === "pending" && row.attemptCount === 0)).toHaveLength(26);

      slow.releaseHanging();
      slow.setDefaultResponse({ status: 200 });
      await waitFor(
        "every slow delivery",
        async () => (await db.$count(deliveries, eq(deliveries.status, "delivered"))) === 200,
      );
      await running.stop();
      expect(fast.requests).toHaveLength(169);
      expect(slow.requests).toHaveLength(31);
    });
  });

  describe("by default", () => {
    it("holds one webhook target to 64 sends in flight, so a lead waits little behind others in a burst", async () => {
      const hanging = await webhookReceiver();
      hanging.setDefaultResponse({ hang: true });
      await Promise.all(Array.from({ length: 80 }, (_, n) => storeOne(webhook(`${hanging.url}${n}`))));
      const running = worker({ urls: estimatesTo(hanging) });
      running.start();
      await waitFor("64 sends held open", async () => hanging.hangingCount() === 64);
      running.wake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hanging.requests).toHaveLength(64);
      hanging.releaseHanging();
      hanging.setDefaultResponse({ status: 200 });
      await waitFor("all 80", async () => (await db.$count(deliveries, eq(deliveries.status, "delivered"))) === 80);
      await running.stop();
    });
  });

  describe("with more than one worker", () => {
    it("delivers 200 submissions exactly once with two workers on their own pools", async () => {
      const receiver = await webhookReceiver();
      // A little latency, so both workers have sends in flight at the same time.
      receiver.setDefaultResponse({ status: 204, delayMs: 5 });
      const stored = await Promise.all(
        Array.from({ length: 200 }, (_, n) => storeOne(webhook(`${receiver.url}hooks/${n}`, { n }))),
      );
      const connections = [connectDatabase(database.url, logger), connectDatabase(database.url, logger)];
      for (const connection of connections) cleanups.push(() => connection.close());
      await warmUp(connections);
      const workers = connections.map((connection) => worker({ db: connection.db, urls: estimatesTo(receiver) }));

      for (const running of workers) running.start();
      await waitFor("200 deliveries", async () => {
        const delivered = await db.$count(deliveries, eq(deliveries.status, "delivered"));
        return delivered === 200;
      });
      await Promise.all(workers.map((running) => running.stop()));

      const received = receiver.requests.map((request) => String(request.headers["webhook-id"]));
      const expected = stored.map((row) => row.webhookId);
      expect(received).toHaveLength(200);
      expect(new Set(received).size).toBe(200);
      expect([...received].sort()).toEqual([...expected].sort());
      for (const request of receiver.requests) {
        const row = stored.find((candidate) => candidate.webhookId === request.headers["webhook-id"]);
        expect(JSON.parse(request.body)).toEqual(row?.body);
      }
      const rows = await db.select().from(deliveries);
      expect(rows.every((row) => row.status === "delivered" && row.attemptCount === 1)).toBe(true);
      expect(await db.$count(deliveryAttempts)).toBe(200);
      expect(await db.$count(deliveryAttempts, eq(deliveryAttempts.succeeded, false))).toBe(0);
    });

    it("never lets two workers claiming at the same moment take the same delivery", async () => {
      const receiver = await webhookReceiver();
      const stored = await Promise.all(Array.from({ length: 60 }, () => storeOne(webhook(receiver.url))));
      const connections = [connectDatabase(database.url, logger), connectDatabase(database.url, logger)];
      for (const connection of connections) cleanups.push(() => connection.close());
      await warmUp(connections);
      const [workerA, workerB] = connections.map((connection) =>
        worker({ db: connection.db, maxInFlight: 10, urls: estimatesTo(receiver) }),
      );
      if (!workerA || !workerB) throw new Error("no workers");

      // Each round holds both claims back behind a table lock and lets them go at the same instant.
      async function claimTogether(): Promise<number[]> {
        if (!workerA || !workerB) throw new Error("no workers");
        const gate = await database.pool.connect();
        let runs: Promise<number[]>;
        try {
          await gate.query("BEGIN");
          await gate.query("LOCK TABLE deliveries IN EXCLUSIVE MODE");
          runs = Promise.all([workerA.runOnce(), workerB.runOnce()]);
          await waitFor("both claims to wait for the table lock", async () => {
            const { rows } = await database.pool.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            );
            return (rows[0]?.n ?? 0) >= 2;
          });
          await gate.query("COMMIT");
        } catch (error) {
          // Never hand a connection that may still hold the lock back to the pool.
          gate.release(error instanceof Error ? error : new Error(String(error)));
          throw error;
        }
        gate.release();
        return runs;
      }

      const handled: number[][] = [];
      for (let round = 0; round < 10; round++) {
        const counts = await claimTogether();
        handled.push(counts);
        if (counts[0] === 0 && counts[1] === 0) break;
      }
      // Both claimed something in the first round: the claims really ran side by side.
      expect(handled[0]).toEqual([10, 10]);

      const total = handled.reduce((sum, [a = 0, b = 0]) => sum + a + b, 0);
      expect(total).toBe(60);
      const received = receiver.requests.map((request) => String(request.headers["webhook-id"]));
      expect(received).toHaveLength(60);
      expect([...received].sort()).toEqual(stored.map((row) => row.webhookId).sort());
      expect(await db.$count(deliveries, eq(deliveries.status, "delivered"))).toBe(60);
    });

    it("takes back at once, with the same webhook-id, a delivery whose worker died mid-send, and records the cut attempt", async () => {
      const receiver = await webhookReceiver();
      receiver.respondWith({ hang: true });
      const stored = await storeOne(webhook(receiver.url));

      // Worker A's own pool, named so that its sessions can be cut as a crash of its process would cut them.
      const doomedPool = new pg.Pool({ connectionString: database.url, application_name: "doomed-worker" });
      doomedPool.on("error", () => {});
      const doomedDb = drizzle(doomedPool, { schema, casing: "snake_case" });
      // A lease far longer than the test: taking the delivery back must not wait for it.
      const workerA = worker({ db: doomedDb, leaseMs: 600_000, urls: estimatesTo(receiver) });
      const runA = workerA.runOnce();
      cleanups.push(async () => {
        receiver.releaseHanging("destroy");
        await runA.catch(() => undefined);
        await workerA.stop().catch(() => undefined);
        await doomedPool.end().catch(() => undefined);
      });

      await receiver.waitForRequests(1, DEADLINE_MS);
      expect(await deliveryRow(stored.id)).toMatchObject({ status: "sending", attemptCount: 1 });
      // A second worker leaves it alone while A lives, though it could claim anything else.
      const workerB = worker({ leaseMs: 600_000, urls: estimatesTo(receiver) });
      expect(await workerB.runOnce()).toBe(0);

      // Worker A dies: PostgreSQL sees its sessions go, its send never finishes.
      await database.pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'doomed-worker'",
      );
      await runUntilClaimed(workerB);

      expect(receiver.requests).toHaveLength(2);
      const [first, second] = receiver.requests;
      expect(first?.headers["webhook-id"]).toBe(stored.webhookId);
      expect(second?.headers["webhook-id"]).toBe(stored.webhookId);
      expect(second?.body).toBe(first?.body);
      const delivered = await deliveryRow(stored.id);
      expect(delivered).toMatchObject({ status: "delivered", attemptCount: 2, leaseExpiresAt: null, lastError: null });
      expect(delivered.deliveredAt).toBeInstanceOf(Date);
      // The log has both attempts, as the count says: the cut one, then the one that arrived.
      const attempts = await attemptsOf(stored.id);
      expect(attempts).toMatchObject([
        {
          succeeded: false,
          httpStatus: null,
          error: "no outcome recorded: the instance sending it stopped or lost its database",
        },
        { succeeded: true, httpStatus: 200 },
      ]);
      expect(attempts).toHaveLength(delivered.attemptCount);
      expect(await workerB.runOnce()).toBe(0);
      expect(receiver.requests).toHaveLength(2);
    });

    it("keeps a slow worker's late failure from undoing the delivery another worker made since", async () => {
      const receiver = await webhookReceiver();
      receiver.respondWith({ hang: true });
      const stored = await storeOne(webhook(receiver.url));

      const slowWorker = worker({ leaseMs: 300, urls: estimatesTo(receiver) });
      const slowRun = slowWorker.runOnce();
      await receiver.waitForRequests(1, DEADLINE_MS);

      const otherWorker = worker({ leaseMs: 300, urls: estimatesTo(receiver) });
      await runUntilClaimed(otherWorker);
      expect(await deliveryRow(stored.id)).toMatchObject({ status: "delivered", attemptCount: 2 });

      // The slow worker's request now fails; its outcome is recorded as history and changes nothing else.
      receiver.releaseHanging({ status: 500 });
      await slowRun;
      expect(await deliveryRow(stored.id)).toMatchObject({ status: "delivered", attemptCount: 2, lastError: null });
      const attempts = await attemptsOf(stored.id);
      expect(attempts.map((attempt) => attempt.httpStatus).sort()).toEqual([200, 500]);
      expect(await otherWorker.runOnce()).toBe(0);
      expect(receiver.requests).toHaveLength(2);
    });
  });

  describe("email", () => {
    const from = "Tri-County Electric <outbox@example.com>";
    const emailBody = {
      subject: "New estimate request EST-7K3QX9",
      text: "Ada Lovelace asked for an estimate.",
      html: "<p><strong>Ada Lovelace</strong> asked for an estimate.</p>",
    };

    function email(destination: string): OutgoingDelivery {
      return { channel: "email", target: "STAFF_NOTIFY_EMAIL", destination, body: emailBody };
    }

    async function smtpReceiverAndSender() {
      const smtp = await startSmtpReceiver();
      cleanups.push(() => smtp.close());
      const sender = createEmailSender(smtp.smtpUrl, from);
      cleanups.push(() => sender.close());
      return { smtp, sender };
    }

    it("sends an email with the subject and both a text and an html part", async () => {
      const { smtp, sender } = await smtpReceiverAndSender();
      const stored = await storeOne(email("staff@example.com"));

      expect(await worker({ emailSender: sender }).runOnce()).toBe(1);

      expect(smtp.messages).toHaveLength(1);
      const [message] = smtp.messages;
      expect(message?.envelope).toEqual({ mailFrom: "outbox@example.com", rcptTo: ["staff@example.com"] });
      expect(message?.subject).toBe(emailBody.subject);
      expect(message?.contentTypes).toEqual(["multipart/alternative", "text/plain", "text/html"]);
      expect(message?.raw).toContain(emailBody.text);
      expect(message?.raw).toContain(emailBody.html);
      const delivered = await deliveryRow(stored.id);
      expect(delivered).toMatchObject({ status: "delivered", attemptCount: 1, lastError: null });
      expect(await attemptsOf(stored.id)).toMatchObject([{ succeeded: true, httpStatus: null, error: null }]);
    });

    it("retries while the SMTP server is down and delivers once it is back", async () => {
      const { smtp, sender } = await smtpReceiverAndSender();
      await smtp.stop();
      const stored = await storeOne(email("staff@example.com"));

      const running = worker({ emailSender: sender, schedule: PATIENT_SCHEDULE });
      running.start();
      const failures = await waitFor("two failed attempts", async () => {
        const attempts = await attemptsOf(stored.id);
        return attempts.length >= 2 && attempts;
      });
      for (const attempt of failures) {
        expect(attempt).toMatchObject({ succeeded: false, httpStatus: null });
        expect(attempt.error).toMatch(/ECONNREFUSED/);
      }
      expect((await deliveryRow(stored.id)).lastError).toMatch(/ECONNREFUSED/);

      await smtp.start();
      await waitFor("the email to be delivered", async () => (await deliveryRow(stored.id)).status === "delivered");
      await running.stop();

      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]?.subject).toBe(emailBody.subject);
      const attempts = await attemptsOf(stored.id);
      expect(attempts.at(-1)).toMatchObject({ succeeded: true, error: null });
      expect(attempts.filter((attempt) => attempt.succeeded)).toHaveLength(1);
    });

    it("fails an email at once, without retrying, when the mail server refuses the address for good", async () => {
      const { smtp, sender } = await smtpReceiverAndSender();
      smtp.refuseRecipient("nobody@example.com", "550 5.1.1 no such user");
      const refused = await storeOne(email("nobody@example.com"));
      const accepted = await storeOne(email("staff@example.com"));

      expect(await worker({ emailSender: sender, schedule: PATIENT_SCHEDULE }).runOnce()).toBe(2);

      const reason = "The receiving mail server refused the address (SMTP 550 5.1.1 no such user)";
      expect(await deliveryRow(refused.id)).toMatchObject({ status: "failed", attemptCount: 1, lastError: reason });
      expect(await attemptsOf(refused.id)).toMatchObject([{ succeeded: false, httpStatus: null, error: reason }]);
      expect(await deliveryRow(accepted.id)).toMatchObject({ status: "delivered" });
      expect(smtp.messages.map((message) => message.envelope.rcptTo)).toEqual([["staff@example.com"]]);
    });

    it.each(["421 4.3.0 try again later", "450 4.2.1 mailbox busy", "451 4.3.0 local error", "452 4.2.2 mailbox full"])(
      "retries an address the mail server turns away for now (%s)",
      async (reply) => {
        const { smtp, sender } = await smtpReceiverAndSender();
        smtp.refuseRecipient("busy@example.com", reply);
        const stored = await storeOne(email("busy@example.com"));

        expect(await worker({ emailSender: sender, schedule: PATIENT_SCHEDULE }).runOnce()).toBe(1);

        // nodemailer reads a 421 as the server closing the connection; either way the reply is kept and retried.
        expect(await deliveryRow(stored.id)).toMatchObject({
          status: "pending",
          attemptCount: 1,
          lastError: expect.stringContaining(reply),
        });
        expect(smtp.messages).toEqual([]);
      },
    );

    it("fails an email delivery when no SMTP server is configured", async () => {
      const stored = await storeOne(email("staff@example.com"));

      expect(await worker({ emailSender: undefined }).runOnce()).toBe(1);

      expect(await deliveryRow(stored.id)).toMatchObject({ status: "pending", lastError: "SMTP_URL is not set" });
      expect(await attemptsOf(stored.id)).toMatchObject([{ succeeded: false, error: "SMTP_URL is not set" }]);
    });
  });
});
