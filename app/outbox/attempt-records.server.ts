import { sql } from "drizzle-orm";
import { type Database, executePrepared } from "~/services/db/database.server";
import { type DeliveryStatus, deliveries, deliveryAttempts } from "~/services/db/schema.server";

/** One finished attempt: its history row, and what it makes of its delivery. */
export type AttemptRecord = {
  deliveryId: number;
  /** The delivery's attempt count when it was claimed for this attempt. */
  attemptCount: number;
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  succeeded: boolean;
  destination: string;
  status: DeliveryStatus;
  /** When to try again; null keeps the delivery's own. */
  nextAttemptAt: Date | null;
};

export type AttemptRecorder = {
  /** Resolves with whether the delivery was still this attempt's, once the attempt is written. */
  record(record: AttemptRecord): Promise<boolean>;
};

/**
 * Writes finished attempts, many in one statement: a record waits while the statement before it runs, and goes
 * with every other that came meanwhile. Under load a worker finishes sends by the dozen; one statement each
 * was most of its database work. Each attempt is kept as history; its delivery is updated only while it is
 * still this attempt's, since a worker slower than its lease may find another one has tried since.
 */
export function createAttemptRecorder(db: Database): AttemptRecorder {
  type Waiting = { record: AttemptRecord; settle: (stillOurs: boolean) => void; fail: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;

  async function writeBatch(batch: Waiting[]) {
    const rows = batch.map(({ record }) => ({
      delivery_id: record.deliveryId,
      attempt_count: record.attemptCount,
      started_at: record.startedAt.toISOString(),
      duration_ms: record.durationMs,
      http_status: record.httpStatus,
      error: record.error,
      succeeded: record.succeeded,
      destination: record.destination,
      status: record.status,
      next_attempt_at: record.nextAttemptAt?.toISOString() ?? null,
    }));
    const updated = await executePrepared<{ id: string }>(
      db,
      sql`
      WITH outcome AS (
        SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS o(delivery_id bigint, attempt_count int,
          started_at timestamptz, duration_ms int, http_status int, error text, succeeded boolean, destination text,
          status text, next_attempt_at timestamptz)
      ), attempt AS (
        INSERT INTO ${deliveryAttempts} (delivery_id, started_at, duration_ms, http_status, error, succeeded, destination)
        SELECT delivery_id, started_at, duration_ms, http_status, error, succeeded, destination FROM outcome
      )
      UPDATE ${deliveries} d
      SET status = o.status, lease_expires_at = NULL, last_error = o.error,
        delivered_at = CASE WHEN o.succeeded THEN now() END,
        next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at)
      FROM outcome o
      WHERE d.id = o.delivery_id AND d.status = 'sending' AND d.attempt_count = o.attempt_count
      RETURNING d.id`,
    );
    const ours = new Set(updated.map((row) => Number(row.id)));
    for (const { record, settle } of batch) settle(ours.has(record.deliveryId));
  }

  async function drain() {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await writeBatch(batch).catch((error: unknown) => {
        for (const { fail } of batch) fail(error);
      });
    }
    writing = false;
  }

  return {
    record(record: AttemptRecord): Promise<boolean> {
      return new Promise((settle, fail) => {
        waiting.push({ record, settle, fail });
        if (!writing) void drain();
      });
    },
  };
}
