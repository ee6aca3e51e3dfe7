import { and, count, desc, gt, isNotNull, max, min, sql } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import type { Database } from "../db/database.server";
import { backupRuns, deliveries, loginThrottles } from "../db/schema.server";
import { archiveCopyProgress } from "../point-in-time/archive-copy.server";
import { readGauge } from "./read-gauge.server";

/** How long archiving a finished WAL segment may take before a stalled archive counts as failing. */
export const ARCHIVE_STALL_MARGIN_SECONDS = 30;

/**
 * What the database holds, read when scraped: the same on every instance, so a dashboard takes max(), not
 * sum(). Pending deliveries and their age, sign-in locks in force, the last good backup, and this instance's pool.
 */
export function databaseRegistry(db: Database): Registry {
  const registry = new Registry();
  deliveryQueueGauges(registry, db);
  signInLockGauges(registry, db);
  backupGauges(registry, db);
  walArchiveGauges(registry, db);
  walCopyGauges(registry);
  connectionPoolGauges(registry, db);
  return registry;
}

const isPending = sql`${deliveries.status} IN ('pending', 'sending')`;

function deliveryQueueGauges(registry: Registry, db: Database): void {
  readGauge(
    registry,
    "tce_deliveries_pending",
    "Deliveries waiting to be sent or being sent (pending or sending), all instances together.",
    async () => {
      const [row] = await db.select({ pending: count() }).from(deliveries).where(isPending);
      return row?.pending ?? 0;
    },
  );
  readGauge(
    registry,
    "tce_deliveries_oldest_pending_age_seconds",
    "Age of the oldest delivery still pending or sending; 0 when none.",
    async () => {
      const [row] = await db
        .select({ oldest: min(deliveries.createdAt) })
        .from(deliveries)
        .where(isPending);
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
      return oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000);
    },
  );
}

function signInLockGauges(registry: Registry, db: Database): void {
  readGauge(registry, "tce_sign_in_locks_active", "Sign-in locks in force now.", async () => {
    const [row] = await db
      .select({ locks: count() })
      .from(loginThrottles)
      .where(and(isNotNull(loginThrottles.lockedUntil), gt(loginThrottles.lockedUntil, sql`now()`)));
    return row?.locks ?? 0;
  });
}

function backupGauges(registry: Registry, db: Database): void {
  const lastBackup = async () => {
    const [row] = await db
      .select({ finishedAt: backupRuns.finishedAt, bytes: backupRuns.bytes })
      .from(backupRuns)
      .where(isNotNull(backupRuns.file))
      .orderBy(desc(backupRuns.finishedAt))
      .limit(1);
    return row;
  };
  readGauge(
    registry,
    "tce_backup_last_success_timestamp_seconds",
    "When the last good backup, scheduled or by hand, finished (Unix time); 0 when there is none.",
    async () => ((await lastBackup())?.finishedAt.getTime() ?? 0) / 1000,
  );
  readGauge(
    registry,
    "tce_backup_last_success_bytes",
    "Size of the last good backup, scheduled or by hand; 0 when there is none.",
    async () => (await lastBackup())?.bytes ?? 0,
  );
  readGauge(
    registry,
    "tce_backup_copy_last_success_timestamp_seconds",
    "When a backup was last copied to BACKUP_COPY_TO and read back whole (Unix time); 0 when never.",
    async () => {
      const [row] = await db.select({ copiedAt: max(backupRuns.copiedAt) }).from(backupRuns);
      return (row?.copiedAt ? new Date(row.copiedAt).getTime() : 0) / 1000;
    },
  );
}

/**
 * PostgreSQL's archiver as pg_stat_archiver sees it. Failing: the last try failed, or archiving has stalled without
 * failing (a command that never returns): WAL was written past the last archived segment, and nothing has been
 * archived for longer than archive_timeout (which bounds how long a written segment waits to be finished) plus a
 * margin for archiving it.
 */
async function archiverState(db: Database) {
  const result = await db.execute<{ archived_at: number; failing: boolean }>(
    sql`SELECT coalesce(extract(epoch FROM a.last_archived_time), 0)::float8 AS archived_at,
        current_setting('archive_mode') <> 'off' AND coalesce(
          a.last_failed_time > coalesce(a.last_archived_time, '-infinity')
          OR (t.seconds > 0
            AND now() - a.last_archived_time > make_interval(secs => t.seconds + ${ARCHIVE_STALL_MARGIN_SECONDS})
            AND a.last_archived_wal ~ '^[0-9A-F]{24}'
            AND substr(a.last_archived_wal, 9, 16) < substr(pg_walfile_name(pg_current_wal_lsn()), 9, 16)),
          false) AS failing
        FROM pg_stat_archiver a, (SELECT setting::int AS seconds FROM pg_settings WHERE name = 'archive_timeout') t`,
  );
  return result.rows[0];
}

function walArchiveGauges(registry: Registry, db: Database): void {
  readGauge(
    registry,
    "tce_wal_archive_last_success_timestamp_seconds",
    "When the database last archived a WAL file (pg_stat_archiver, Unix time); 0 when it never has or does not archive.",
    async () => (await archiverState(db))?.archived_at ?? 0,
  );
  readGauge(
    registry,
    "tce_wal_archive_failing",
    "1 when archiving is on and the last try to archive a WAL file failed, or WAL was written and none archived for longer than archive_timeout plus 30 s (pg_stat_archiver), else 0.",
    async () => ((await archiverState(db))?.failing ? 1 : 0),
  );
}

function walCopyGauges(registry: Registry): void {
  readGauge(
    registry,
    "tce_wal_copy_pending_files",
    "Archived WAL files of this instance not yet copied to BACKUP_COPY_TO and read back.",
    () => archiveCopyProgress.pendingFiles,
  );
  readGauge(
    registry,
    "tce_wal_copy_last_success_timestamp_seconds",
    "When BACKUP_COPY_TO last held every WAL file this instance had archived (Unix time); 0 when never.",
    () => archiveCopyProgress.caughtUpAt / 1000,
  );
}

function connectionPoolGauges(registry: Registry, db: Database): void {
  const pool = db.$client;
  new Gauge({
    name: "tce_database_pool_connections",
    help: "This instance's database connections, by state (idle, in_use).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
    },
  });
  readGauge(
    registry,
    "tce_database_pool_waiting_requests",
    "Queries of this instance waiting for a free database connection.",
    () => pool.waitingCount,
  );
}
