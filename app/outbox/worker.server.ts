import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { executePrepared } from "~/services/db/database.server";
import { deliveries } from "~/services/db/schema.server";
import { deliveryAttempts } from "~/services/metrics/metrics.server";
import { createAttemptRecorder } from "./attempt-records.server";
import { type ChannelContext, DELIVERY_CHANNELS, type Delivery, defaultMaxInFlight } from "./channels.server";
import { createLeaseHolder, LEASE_LOCK_SPACE } from "./lease-holder.server";
import { nextAttemptDelay } from "./retry-schedule.server";
import { unconfiguredTargetError } from "./targets.server";
import { type SendOutcome, WEBHOOK_TIMEOUT_MS } from "./webhook-sender.server";

type ClaimedRow = {
  id: string;
  submission_id: string;
  webhook_id: string;
  reference: string;
  channel: Delivery["channel"];
  target: string;
  destination: string;
  body: unknown;
  body_format: Delivery["bodyFormat"];
  attempt_count: number;
  /** next_attempt_at in seconds, to keep the claimed in the order they came due. */
  due: number;
  claimed_with: unknown;
};

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

/**
 * What the log says of an attempt whose worker let go of it without writing an outcome: it died, or its
 * database went away before the outcome could be written. The receiver may or may not have had it.
 */
const INTERRUPTED_ERROR = "no outcome recorded: the instance sending it stopped or lost its database";

/**
 * The outbox worker. Every instance of the app runs one. It claims continuously: whenever a send finishes
 * or a submission comes in it claims again, up to `maxInFlight` sends, and never more than `perTargetLimit`
 * to one target. `FOR UPDATE SKIP LOCKED` keeps two workers from claiming the same row; a lease, and a
 * shared advisory lock held by the claiming session (lease-holder.server.ts), keep a delivery with its
 * worker while that worker lives. A delivery whose worker died is taken back at once, its cut attempt
 * recorded, and sent again with the same webhook-id (at least once: receivers deduplicate on it).
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, config, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const maxInFlight = options.maxInFlight ?? defaultMaxInFlight(config);
  const channelLimits = Object.entries(DELIVERY_CHANNELS).map(
    ([name, channel]) => sql`WHEN ${name}::text THEN ${options.perTargetLimit || channel.perTargetLimit}::int`,
  );
  const perTargetLimit = sql`CASE d.channel ${sql.join(channelLimits, sql` `)} END`;
  const readWithClaim = Object.entries(DELIVERY_CHANNELS).flatMap(([name, channel]) =>
    channel.claimedWith ? [sql`WHEN ${name}::text THEN ${channel.claimedWith}`] : [],
  );
  const claimedWith =
    readWithClaim.length > 0 ? sql`CASE d.channel ${sql.join(readWithClaim, sql` `)} END` : sql`NULL::json`;
  const leaseMs = options.leaseMs ?? WEBHOOK_TIMEOUT_MS + 15_000;
  /** Deliveries being sent by this worker, with their targets. */
  const inFlight = new Map<number, string>();
  const sends = new Set<Promise<void>>();
  const leases = createLeaseHolder(db.$client, logger, () => inFlight.keys());
  const attempts = createAttemptRecorder(db);
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  let stopped = true;

  function inFlightByTarget(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const target of inFlight.values()) counts[target] = (counts[target] ?? 0) + 1;
    return counts;
  }

  /**
   * Takes due deliveries, at most `room` and at most `perTargetLimit` in flight per target, in one statement
   * on the lease session, which takes each one's advisory lock as it claims it. A delivery still `sending` is
   * due when its lease ran out, or at once when no session holds its lock: its worker is gone, and the attempt
   * it cut short is recorded as such.
   */
  async function claim(room: number): Promise<Delivery[]> {
    if (room <= 0) return [];
    const lease = sql`make_interval(secs => ${leaseMs / 1000})`;
    const busy = JSON.stringify(inFlightByTarget());
    const mine = `{${[...inFlight.keys()].join(",")}}`;
    // Whether a `sending` row's worker is gone: nobody holds its shared lock, so an exclusive try succeeds
    // (held to the end of this statement only). Asked per row, as the row is locked, not from a snapshot of
    // pg_locks, which a row another worker claimed a moment ago would not be in yet.
    const ownerGone = sql`CASE WHEN d.status = 'sending' THEN pg_try_advisory_xact_lock(${LEASE_LOCK_SPACE}, d.id::int) ELSE false END`;
    const claimed = await leases.run((session) =>
      executePrepared<ClaimedRow>(
        session,
        sql`
        WITH candidates AS (
          SELECT d.id, d.target, d.next_attempt_at, d.lease_expires_at, ${ownerGone} AS orphaned,
            ${perTargetLimit} AS target_limit
          FROM deliveries d
          WHERE d.status IN ('pending', 'sending')
            AND d.next_attempt_at <= now()
            AND NOT (d.id = ANY(${mine}::bigint[]))
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now() OR ${ownerGone})
            AND coalesce((${busy}::jsonb ->> d.target)::int, 0) < ${perTargetLimit}
          ORDER BY d.next_attempt_at
          LIMIT ${room}
          FOR UPDATE OF d SKIP LOCKED
        ),
        chosen AS (
          SELECT * FROM (
            SELECT c.*, row_number() OVER (PARTITION BY c.target ORDER BY c.next_attempt_at, c.id) AS place
            FROM candidates c
          ) ranked
          WHERE place + coalesce((${busy}::jsonb ->> target)::int, 0) <= target_limit
        ),
        interrupted AS (
          INSERT INTO delivery_attempts (delivery_id, started_at, duration_ms, http_status, error, succeeded)
          SELECT id, coalesce(lease_expires_at - ${lease}, now()), 0, NULL, ${INTERRUPTED_ERROR}, false
          FROM chosen WHERE orphaned
        )
        UPDATE deliveries d
        SET status = 'sending', attempt_count = d.attempt_count + 1, lease_expires_at = now() + ${lease}
        FROM chosen
        WHERE d.id = chosen.id
        RETURNING d.id, d.submission_id, d.webhook_id, d.reference, d.channel, d.target, d.destination, d.body,
          d.body_format, d.attempt_count, extract(epoch FROM d.next_attempt_at)::float8 AS due,
          ${claimedWith} AS claimed_with,
          pg_advisory_lock_shared(${LEASE_LOCK_SPACE}, d.id::int)`,
      ),
    );
    return claimed
      .sort((a, b) => a.due - b.due)
      .map((row) => ({
        id: Number(row.id),
        submissionId: Number(row.submission_id),
        webhookId: row.webhook_id,
        reference: row.reference,
        channel: row.channel,
        target: row.target,
        destination: row.destination,
        body: row.body,
        bodyFormat: row.body_format,
        attemptCount: row.attempt_count,
        claimedWith: row.claimed_with,
      }));
  }

  async function releaseHeld(): Promise<void> {
    for (const channel of Object.values(DELIVERY_CHANNELS)) await channel.releaseHeld?.(options);
  }

  /** Gives a claimed delivery back as held: its target is not configured, so it has nowhere to go. */
  async function hold(delivery: Delivery): Promise<void> {
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

  async function attempt(delivery: Delivery): Promise<void> {
    const channel = DELIVERY_CHANNELS[delivery.channel];
    const url = channel.currentDestination ? channel.currentDestination(delivery, config) : delivery.destination;
    if (url === undefined) return hold(delivery);
    const startedAt = new Date();
    const outcome = await channel
      .send({ ...delivery, destination: url }, options)
      .catch(
        (error: unknown): SendOutcome => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    const durationMs = Date.now() - startedAt.getTime();
    const delay =
      outcome.ok || outcome.permanent
        ? undefined
        : nextAttemptDelay(config.DELIVERY_RETRY_SCHEDULE, delivery.attemptCount);
    const status = outcome.ok ? "delivered" : delay === undefined ? "failed" : "pending";
    const error = outcome.ok ? null : outcome.error;
    const stillOurs = await attempts.record({
      deliveryId: delivery.id,
      attemptCount: delivery.attemptCount,
      startedAt,
      durationMs,
      httpStatus: outcome.httpStatus ?? null,
      error,
      succeeded: outcome.ok,
      destination: url,
      status,
      nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay),
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

  /** Sends one claimed delivery and lets its lock go; the returned promise never rejects. */
  function track(delivery: Delivery): Promise<void> {
    inFlight.set(delivery.id, delivery.target);
    const sent = attempt(delivery)
      .catch((error: unknown) => logger.error({ err: error, deliveryId: delivery.id }, "delivery attempt failed"))
      .then(() => leases.release(delivery.id))
      .catch((error: unknown) => logger.warn({ err: error, deliveryId: delivery.id }, "delivery lock not released"))
      .finally(() => {
        inFlight.delete(delivery.id);
        sends.delete(sent);
        pump();
      });
    sends.add(sent);
    return sent;
  }

  async function runOnce(): Promise<number> {
    await releaseHeld();
    const claimed = await claim(maxInFlight - inFlight.size);
    await Promise.all(claimed.map(track));
    // Run by hand, not started: nothing is in flight any more, so the session (and its pool connection) goes.
    if (stopped && inFlight.size === 0) await leases.close();
    return claimed.length;
  }

  /** Claims until nothing more is due or there is no room, while sends go on; one pump at a time. */
  function pump() {
    if (stopped) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        while (!stopped) {
          const room = maxInFlight - inFlight.size;
          if (room <= 0) break;
          const claimed = await claim(room);
          for (const delivery of claimed) void track(delivery);
          // Fewer than it had room for: nothing else was due. What comes in meanwhile wakes the pump again.
          if (claimed.length < room) break;
        }
      } while (pumpAgain && !stopped);
    })()
      .catch((error: unknown) => logger.error({ err: error }, "delivery worker claim failed"))
      .finally(() => {
        pumping = undefined;
      });
  }

  return {
    start: () => {
      stopped = false;
      timer = setInterval(pump, pollIntervalMs);
      releaseHeld()
        .catch((error: unknown) => logger.error({ err: error }, "held deliveries could not be released"))
        .finally(pump);
    },
    wake: pump,
    runOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await pumping;
      await Promise.all([...sends]);
      await leases.close();
    },
  };
}
