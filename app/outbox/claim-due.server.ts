import { type SQL, sql } from "drizzle-orm";
import { executePrepared } from "~/services/db/database.server";
import { DELIVERY_CHANNELS, type Delivery } from "./channels.server";
import { LEASE_LOCK_SPACE, type LeaseHolder } from "./lease-holder.server";

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

/**
 * What the log says of an attempt whose worker let go of it without writing an outcome: it died, or its
 * database went away before the outcome could be written. The receiver may or may not have had it.
 */
const INTERRUPTED_ERROR = "no outcome recorded: the instance sending it stopped or lost its database";

/** The parts of the claiming statement that stay the same for a worker's life. */
export type ClaimSettings = {
  /** How long a claimed delivery stays with a live worker; past it another worker may send it again. */
  leaseMs: number;
  /** The most in flight to one target of a row's channel, in SQL over `d`. */
  perTargetLimit: SQL;
  /** What each channel reads with a claim (its `claimedWith`), in SQL over `d`. */
  claimedWith: SQL;
};

/** The claim's settings: one per-target limit for every channel when given, else each channel's own. */
export function claimSettings(leaseMs: number, perTargetLimit: number | undefined): ClaimSettings {
  const channelLimits = Object.entries(DELIVERY_CHANNELS).map(
    ([name, channel]) => sql`WHEN ${name}::text THEN ${perTargetLimit || channel.perTargetLimit}::int`,
  );
  const readWithClaim = Object.entries(DELIVERY_CHANNELS).flatMap(([name, channel]) =>
    channel.claimedWith ? [sql`WHEN ${name}::text THEN ${channel.claimedWith}`] : [],
  );
  return {
    leaseMs,
    perTargetLimit: sql`CASE d.channel ${sql.join(channelLimits, sql` `)} END`,
    claimedWith:
      readWithClaim.length > 0 ? sql`CASE d.channel ${sql.join(readWithClaim, sql` `)} END` : sql`NULL::json`,
  };
}

function inFlightByTarget(inFlight: ReadonlyMap<number, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const target of inFlight.values()) counts[target] = (counts[target] ?? 0) + 1;
  return counts;
}

/**
 * Takes due deliveries, at most `room` and at most the per-target limit in flight per target (counting
 * `inFlight`, this worker's sends by id with their targets), in one statement on the lease session, which
 * takes each one's advisory lock as it claims it. A delivery still `sending` is due when its lease ran out, or
 * at once when no session holds its lock: its worker is gone, and the attempt it cut short is recorded as such.
 */
export async function claimDue(
  leases: LeaseHolder,
  settings: ClaimSettings,
  inFlight: ReadonlyMap<number, string>,
  room: number,
): Promise<Delivery[]> {
  if (room <= 0) return [];
  const { perTargetLimit } = settings;
  const lease = sql`make_interval(secs => ${settings.leaseMs / 1000})`;
  const busy = JSON.stringify(inFlightByTarget(inFlight));
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
        ${settings.claimedWith} AS claimed_with,
        pg_advisory_lock_shared(${LEASE_LOCK_SPACE}, d.id::int)`,
    ),
  );
  return claimed.sort((a, b) => a.due - b.due).map(claimedDelivery);
}

const claimedDelivery = (row: ClaimedRow): Delivery => ({
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
});
