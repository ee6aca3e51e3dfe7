import { and, eq } from "drizzle-orm";
import type { Logger } from "pino";
import { type DeliveryStatus, deliveries } from "~/services/db/schema.server";
import { deliveryAttempts } from "~/services/metrics/metrics.server";
import { type AttemptRecorder, createAttemptRecorder } from "./attempt-records.server";
import { type ChannelContext, DELIVERY_CHANNELS, type Delivery, defaultMaxInFlight } from "./channels.server";
import { type ClaimSettings, claimDue, claimSettings } from "./claim-due.server";
import { createLeaseHolder, type LeaseHolder } from "./lease-holder.server";
import { nextAttemptDelay } from "./retry-schedule.server";
import { unconfiguredTargetError } from "./targets.server";
import { type SendOutcome, WEBHOOK_TIMEOUT_MS } from "./webhook-sender.server";

export type DeliveryWorkerOptions = ChannelContext & {
  logger: Logger;
  pollIntervalMs?: number;
  /** The most sends this instance has in flight at once. */
  maxInFlight?: number;
  /**
   * The most sends in flight at once to one target, so a slow or dead receiver never holds up the others: one
   * number for every channel, or each channel's own (channels.server.ts).
   */
  perTargetLimit?: number;
  /** How long a claimed delivery stays with a live worker; past it another worker may send it again. */
  leaseMs?: number;
};

export type DeliveryWorker = {
  start: () => void;
  /** Look for due deliveries now rather than at the next poll (a submission was just stored). */
  wake: () => void;
  /** Claims what it may of the due deliveries, once, and sends them; resolves with how many it handled. */
  runOnce: () => Promise<number>;
  /** Stops claiming and waits for the sends in flight. */
  stop: () => Promise<void>;
};

/** What the worker's steps share: its settings, the sends it has in flight, and whether it runs. */
type WorkerState = {
  options: DeliveryWorkerOptions;
  maxInFlight: number;
  claim: ClaimSettings;
  /** Deliveries being sent by this worker, with their targets. */
  inFlight: Map<number, string>;
  sends: Set<Promise<void>>;
  leases: LeaseHolder;
  attempts: AttemptRecorder;
  timer?: NodeJS.Timeout;
  pumping?: Promise<void>;
  pumpAgain: boolean;
  stopped: boolean;
};

/**
 * The outbox worker. Every instance of the app runs one. It claims continuously: whenever a send finishes
 * or a submission comes in it claims again, up to `maxInFlight` sends, and never more than `perTargetLimit`
 * to one target. `FOR UPDATE SKIP LOCKED` keeps two workers from claiming the same row; a lease, and a
 * shared advisory lock held by the claiming session (lease-holder.server.ts), keep a delivery with its
 * worker while that worker lives. A delivery whose worker died is taken back at once, its cut attempt
 * recorded, and sent again with the same webhook-id (at least once: receivers deduplicate on it).
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const inFlight = new Map<number, string>();
  const worker: WorkerState = {
    options,
    maxInFlight: options.maxInFlight ?? defaultMaxInFlight(options.config),
    claim: claimSettings(options.leaseMs ?? WEBHOOK_TIMEOUT_MS + 15_000, options.perTargetLimit),
    inFlight,
    sends: new Set(),
    leases: createLeaseHolder(options.db.$client, options.logger, () => inFlight.keys()),
    attempts: createAttemptRecorder(options.db),
    pumpAgain: false,
    stopped: true,
  };
  return {
    start: () => start(worker),
    wake: () => pump(worker),
    runOnce: () => runOnce(worker),
    stop: () => stop(worker),
  };
}

function start(worker: WorkerState): void {
  worker.stopped = false;
  worker.timer = setInterval(() => pump(worker), worker.options.pollIntervalMs ?? 1_000);
  releaseHeld(worker.options)
    .catch((error: unknown) => worker.options.logger.error({ err: error }, "held deliveries could not be released"))
    .finally(() => pump(worker));
}

async function stop(worker: WorkerState): Promise<void> {
  worker.stopped = true;
  clearInterval(worker.timer);
  await worker.pumping;
  await Promise.all([...worker.sends]);
  await worker.leases.close();
}

async function runOnce(worker: WorkerState): Promise<number> {
  await releaseHeld(worker.options);
  const claimed = await leaseNext(worker, worker.maxInFlight - worker.inFlight.size);
  await Promise.all(claimed.map((delivery) => sendInFlight(worker, delivery)));
  // Run by hand, not started: nothing is in flight any more, so the session (and its pool connection) goes.
  if (worker.stopped && worker.inFlight.size === 0) await worker.leases.close();
  return claimed.length;
}

/** Puts each channel's held deliveries whose setting is now set back in the queue. */
async function releaseHeld(options: DeliveryWorkerOptions): Promise<void> {
  for (const channel of Object.values(DELIVERY_CHANNELS)) await channel.releaseHeld?.(options);
}

const leaseNext = (worker: WorkerState, room: number) => claimDue(worker.leases, worker.claim, worker.inFlight, room);

/** Claims until nothing more is due or there is no room, while sends go on; one pump at a time. */
function pump(worker: WorkerState): void {
  if (worker.stopped) return;
  if (worker.pumping) {
    worker.pumpAgain = true;
    return;
  }
  worker.pumping = (async () => {
    do {
      worker.pumpAgain = false;
      while (!worker.stopped) {
        const room = worker.maxInFlight - worker.inFlight.size;
        if (room <= 0) break;
        const claimed = await leaseNext(worker, room);
        for (const delivery of claimed) void sendInFlight(worker, delivery);
        // Fewer than it had room for: nothing else was due. What comes in meanwhile wakes the pump again.
        if (claimed.length < room) break;
      }
    } while (worker.pumpAgain && !worker.stopped);
  })()
    .catch((error: unknown) => worker.options.logger.error({ err: error }, "delivery worker claim failed"))
    .finally(() => {
      worker.pumping = undefined;
    });
}

/** Sends one claimed delivery and lets its lock go, then claims again; the returned promise never rejects. */
function sendInFlight(worker: WorkerState, delivery: Delivery): Promise<void> {
  const { inFlight, sends, leases, options } = worker;
  inFlight.set(delivery.id, delivery.target);
  const sent = deliverOne(options, worker.attempts, delivery)
    .catch((error: unknown) => options.logger.error({ err: error, deliveryId: delivery.id }, "delivery attempt failed"))
    .then(() => leases.release(delivery.id))
    .catch((error: unknown) =>
      options.logger.warn({ err: error, deliveryId: delivery.id }, "delivery lock not released"),
    )
    .finally(() => {
      inFlight.delete(delivery.id);
      sends.delete(sent);
      pump(worker);
    });
  sends.add(sent);
  return sent;
}

/** One attempt at a claimed delivery: sent where its channel says it goes now, or held when that is not set. */
async function deliverOne(options: DeliveryWorkerOptions, attempts: AttemptRecorder, delivery: Delivery) {
  const channel = DELIVERY_CHANNELS[delivery.channel];
  const url = channel.currentDestination ? channel.currentDestination(delivery, options.config) : delivery.destination;
  if (url === undefined) return hold(options, delivery);
  const startedAt = new Date();
  const outcome = await channel
    .send({ ...delivery, destination: url }, options)
    .catch(
      (error: unknown): SendOutcome => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  await recordOutcome(options, attempts, { delivery, url, startedAt, outcome });
}

/** Gives a claimed delivery back as held: its target is not configured, so it has nowhere to go. */
async function hold({ db, logger }: DeliveryWorkerOptions, delivery: Delivery): Promise<void> {
  await db
    .update(deliveries)
    .set({
      status: "held",
      attemptCount: delivery.attemptCount - 1,
      leaseExpiresAt: null,
      lastError: unconfiguredTargetError(delivery.target),
    })
    .where(
      and(
        eq(deliveries.id, delivery.id),
        eq(deliveries.status, "sending"),
        eq(deliveries.attemptCount, delivery.attemptCount),
      ),
    );
  logger.warn({ deliveryId: delivery.id, target: delivery.target }, "delivery held: its target is not set");
}

type Sent = { delivery: Delivery; url: string; startedAt: Date; outcome: SendOutcome };

/** Writes an attempt's outcome, unless another worker took the delivery over meanwhile, then counts and logs it. */
async function recordOutcome(options: DeliveryWorkerOptions, attempts: AttemptRecorder, sent: Sent): Promise<void> {
  const { delivery, outcome, startedAt } = sent;
  const { logger } = options;
  const durationMs = Date.now() - startedAt.getTime();
  const { status, nextAttemptAt } = scheduleRetry(options.config, delivery, outcome);
  const error = outcome.ok ? null : outcome.error;
  const stillOurs = await attempts.record({
    deliveryId: delivery.id,
    attemptCount: delivery.attemptCount,
    startedAt,
    durationMs,
    httpStatus: outcome.httpStatus ?? null,
    error,
    succeeded: outcome.ok,
    destination: sent.url,
    status,
    nextAttemptAt,
  });
  if (!stillOurs) {
    logger.warn({ deliveryId: delivery.id }, "delivery was taken over while sending; its outcome is kept as history");
    return;
  }
  deliveryAttempts.inc({
    target: delivery.target,
    channel: delivery.channel,
    outcome: outcome.ok ? "delivered" : status === "failed" ? "failed" : "retry",
  });
  const log = { deliveryId: delivery.id, target: delivery.target, attempt: delivery.attemptCount, durationMs };
  if (outcome.ok) logger.info(log, "delivered");
  else logger.warn({ ...log, error, status }, status === "failed" ? "delivery failed for good" : "delivery failed");
}

/** What an attempt's outcome makes of its delivery: delivered, failed for good, or pending until its next try. */
function scheduleRetry(config: DeliveryWorkerOptions["config"], delivery: Delivery, outcome: SendOutcome) {
  const delay =
    outcome.ok || outcome.permanent
      ? undefined
      : nextAttemptDelay(config.DELIVERY_RETRY_SCHEDULE, delivery.attemptCount);
  const status: DeliveryStatus = outcome.ok ? "delivered" : delay === undefined ? "failed" : "pending";
  return { status, nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay) };
}
