import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "~/server/config.server";
import type { Database } from "~/server/db/database.server";
import { deliveries, deliveryAttempts } from "~/server/db/schema.server";
import type { EmailBody, EmailSender } from "./email-sender.server";
import { isMultipartBody } from "./multipart-body";
import { encodeMultipart } from "./multipart-body.server";
import { nextAttemptDelay } from "./retry-schedule.server";
import { readSubmissionFiles } from "./submission-files.server";
import {
  type EncodedBody,
  encodeJson,
  type SendOutcome,
  sendWebhook,
  WEBHOOK_TIMEOUT_MS,
} from "./webhook-sender.server";

type Delivery = typeof deliveries.$inferSelect;

export type DeliveryWorkerOptions = {
  db: Database;
  config: Pick<Config, "DELIVERY_RETRY_SCHEDULE" | "WEBHOOK_SECRET">;
  logger: Logger;
  emailSender?: EmailSender;
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a claimed delivery stays with its worker; past it another worker may send it again. */
  leaseMs?: number;
};

export type DeliveryWorker = {
  start: () => void;
  /** Look for due deliveries now rather than at the next poll (a submission was just stored). */
  wake: () => void;
  /** Claims and sends one batch of due deliveries; resolves with how many it handled. */
  runOnce: () => Promise<number>;
  /** Stops polling and waits for the sends in flight. */
  stop: () => Promise<void>;
};

/**
 * The outbox worker. Every instance of the app runs one; `FOR UPDATE SKIP LOCKED` and a lease keep two
 * workers from sending the same attempt at once, and a lease left by a worker that died expires, so the
 * delivery is sent again (at least once, with the same webhook-id).
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, config, logger, emailSender } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const batchSize = options.batchSize ?? 25;
  const leaseMs = options.leaseMs ?? WEBHOOK_TIMEOUT_MS + 15_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  /** Takes up to a batch of due deliveries, in one statement: rows another worker holds are skipped. */
  function claim(): Promise<Delivery[]> {
    const due = db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        and(
          inArray(deliveries.status, ["pending", "sending"]),
          lte(deliveries.nextAttemptAt, sql`now()`),
          or(isNull(deliveries.leaseExpiresAt), lt(deliveries.leaseExpiresAt, sql`now()`)),
        ),
      )
      .orderBy(deliveries.nextAttemptAt)
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(deliveries)
      .set({
        status: "sending",
        attemptCount: sql`${deliveries.attemptCount} + 1`,
        leaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      })
      .where(inArray(deliveries.id, due))
      .returning();
  }

  async function send(delivery: Delivery): Promise<SendOutcome> {
    if (delivery.channel === "webhook") {
      return sendWebhook({
        url: delivery.destination,
        webhookId: delivery.webhookId,
        reference: delivery.reference,
        body: await encodeBody(delivery),
        secret: config.WEBHOOK_SECRET,
      });
    }
    if (!emailSender) return { ok: false, error: "SMTP_URL is not set" };
    return emailSender.send(delivery.destination, delivery.body as EmailBody);
  }

  async function encodeBody(delivery: Delivery): Promise<EncodedBody> {
    if (delivery.bodyFormat === "json") return encodeJson(delivery.body);
    if (!isMultipartBody(delivery.body)) throw new Error("the multipart delivery's body has no parts");
    return encodeMultipart(delivery.body, await readSubmissionFiles(db, delivery.submissionId));
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const startedAt = new Date();
    const outcome = await send(delivery).catch(
      (error: unknown): SendOutcome => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    const durationMs = Date.now() - startedAt.getTime();
    const delay = outcome.ok ? undefined : nextAttemptDelay(config.DELIVERY_RETRY_SCHEDULE, delivery.attemptCount);
    const status = outcome.ok ? "delivered" : delay === undefined ? "failed" : "pending";
    const error = outcome.ok ? null : outcome.error;
    const stillOurs = await db.transaction(async (tx) => {
      await tx.insert(deliveryAttempts).values({
        deliveryId: delivery.id,
        startedAt,
        durationMs,
        httpStatus: outcome.httpStatus ?? null,
        error,
        succeeded: outcome.ok,
      });
      // A worker slower than its lease may find another one has tried since: its outcome is then history only.
      const updated = await tx
        .update(deliveries)
        .set({
          status,
          leaseExpiresAt: null,
          lastError: error,
          deliveredAt: outcome.ok ? new Date() : null,
          nextAttemptAt: delay === undefined ? sql`next_attempt_at` : new Date(Date.now() + delay),
        })
        .where(
          and(
            eq(deliveries.id, delivery.id),
            eq(deliveries.status, "sending"),
            eq(deliveries.attemptCount, delivery.attemptCount),
          ),
        )
        .returning({ id: deliveries.id });
      return updated.length > 0;
    });
    if (!stillOurs) {
      logger.warn({ deliveryId: delivery.id }, "delivery was taken over while sending; its outcome is kept as history");
      return;
    }
    const log = { deliveryId: delivery.id, target: delivery.target, attempt: delivery.attemptCount, durationMs };
    if (outcome.ok) logger.info(log, "delivered");
    else logger.warn({ ...log, error, status }, status === "failed" ? "delivery failed for good" : "delivery failed");
  }

  async function runOnce(): Promise<number> {
    const batch = await claim();
    await Promise.all(batch.map(attempt));
    return batch.length;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
  }

  function tick() {
    running = runOnce().then(
      (handled) => schedule(handled === batchSize ? 0 : pollIntervalMs),
      (error: unknown) => {
        logger.error({ err: error }, "delivery worker run failed");
        schedule(pollIntervalMs);
      },
    );
  }

  return {
    start: () => {
      stopped = false;
      schedule(0);
    },
    wake: () => {
      void running.then(() => schedule(0));
    },
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
