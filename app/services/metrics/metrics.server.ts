import { timingSafeEqual } from "node:crypto";
import { totalmem } from "node:os";
import { and, count, desc, gt, isNotNull, max, min, sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import { backupRuns, deliveries, loginThrottles } from "../db/schema.server";
import { onePerProcess } from "../one-per-process.server";
import { archiveCopyProgress } from "../point-in-time/archive-copy.server";

/** How long archiving a finished WAL segment may take before a stalled archive counts as failing. */
export const ARCHIVE_STALL_MARGIN_SECONDS = 30;

import { workPoolLoad } from "../work-pool/work-pool.server";

/**
 * What the process counts as it goes (attempts, sign-ins, request times, documents), and Node's own series
 * (memory, event-loop lag, garbage collection), in one registry for the life of the process: Prometheus takes
 * the rate of a counter per instance, so these are per instance by nature. One per process, not per module copy:
 * React Router's bundle counts sign-ins and documents, the server's bundle answers /metrics (decision 0114).
 */
function createProcessMetrics() {
  const registry = new Registry();
  // Under their usual names (process_resident_memory_bytes, nodejs_eventloop_lag_seconds...), which the
  // Node.js dashboards and alerts people already have read; the job label says which app they are.
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    deliveryAttempts: new Counter({
      name: "tce_delivery_attempts_total",
      help: "Delivery attempts made by this instance, by target, channel and outcome (delivered, retry, failed).",
      labelNames: ["target", "channel", "outcome"] as const,
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: "tce_sign_in_failures_total",
      help: "Sign-in checks (password or code) answered wrong on this instance.",
      registers: [registry],
    }),
    signInLocks: new Counter({
      name: "tce_sign_in_locks_total",
      help: "Sign-in locks set by this instance (an account from an address, or an address, reached its limit).",
      registers: [registry],
    }),
    documentsBuilt: new Counter({
      name: "tce_documents_built_total",
      help: "Documents (PDFs) built by this instance for the forms' submissions, by form type.",
      labelNames: ["type"] as const,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: "tce_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route, method and status class.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

const processMetrics = onePerProcess("metrics", createProcessMetrics);
export const { deliveryAttempts, signInFailures, signInLocks, documentsBuilt, httpRequestDuration } = processMetrics;

/**
 * The work pool's load and the limits it and the process run under, read when scraped: a queue at its limit
 * turns the next photo or PDF away (503), and resident memory near the limit is the kernel's next kill.
 */
function limitsRegistry(config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">): Registry {
  const registry = new Registry();
  new Gauge({
    name: "tce_work_pool_queued_tasks",
    help: "Photo and PDF tasks of this instance waiting for a free worker.",
    registers: [registry],
    collect() {
      this.set(workPoolLoad().queued);
    },
  });
  new Gauge({
    name: "tce_work_pool_running_tasks",
    help: "Photo and PDF tasks of this instance running in a worker now.",
    registers: [registry],
    collect() {
      this.set(workPoolLoad().running);
    },
  });
  new Gauge({
    name: "tce_work_pool_queue_limit",
    help: "Tasks the work pool's queue holds at most (PHOTO_QUEUE_LIMIT); one more is refused.",
    registers: [registry],
    collect() {
      this.set(config.PHOTO_QUEUE_LIMIT);
    },
  });
  new Gauge({
    name: "tce_work_pool_workers",
    help: "Worker threads the work pool runs at most (PHOTO_WORKERS).",
    registers: [registry],
    collect() {
      this.set(config.PHOTO_WORKERS);
    },
  });
  new Gauge({
    name: "tce_memory_limit_bytes",
    help: "Memory this process may use: its control group's limit (systemd MemoryMax=) when set, else the machine's.",
    registers: [registry],
    collect() {
      this.set(memoryLimitBytes());
    },
  });
  return registry;
}

/** The control group's limit where there is one (Node reports no limit as 2^64), else all of the machine's memory. */
function memoryLimitBytes(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const machine = totalmem();
  return constrained > 0 && constrained < machine ? constrained : machine;
}

/**
 * What the database holds, read when scraped: the same on every instance, so a dashboard takes max(), not
 * sum(). Pending deliveries and their age, sign-in locks in force, the last good backup, and this instance's pool.
 */
function databaseRegistry(db: Database): Registry {
  const registry = new Registry();
  new Gauge({
    name: "tce_deliveries_pending",
    help: "Deliveries waiting to be sent or being sent (pending or sending), all instances together.",
    registers: [registry],
    async collect() {
      const [row] = await db
        .select({ pending: count() })
        .from(deliveries)
        .where(sql`${deliveries.status} IN ('pending', 'sending')`);
      this.set(row?.pending ?? 0);
    },
  });
  new Gauge({
    name: "tce_deliveries_oldest_pending_age_seconds",
    help: "Age of the oldest delivery still pending or sending; 0 when none.",
    registers: [registry],
    async collect() {
      const [row] = await db
        .select({ oldest: min(deliveries.createdAt) })
        .from(deliveries)
        .where(sql`${deliveries.status} IN ('pending', 'sending')`);
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
      this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
  new Gauge({
    name: "tce_sign_in_locks_active",
    help: "Sign-in locks in force now.",
    registers: [registry],
    async collect() {
      const [row] = await db
        .select({ locks: count() })
        .from(loginThrottles)
        .where(and(isNotNull(loginThrottles.lockedUntil), gt(loginThrottles.lockedUntil, sql`now()`)));
      this.set(row?.locks ?? 0);
    },
  });
  const lastBackup = async () => {
    const [row] = await db
      .select({ finishedAt: backupRuns.finishedAt, bytes: backupRuns.bytes })
      .from(backupRuns)
      .where(isNotNull(backupRuns.file))
      .orderBy(desc(backupRuns.finishedAt))
      .limit(1);
    return row;
  };
  new Gauge({
    name: "tce_backup_last_success_timestamp_seconds",
    help: "When the last good backup, scheduled or by hand, finished (Unix time); 0 when there is none.",
    registers: [registry],
    async collect() {
      this.set(((await lastBackup())?.finishedAt.getTime() ?? 0) / 1000);
    },
  });
  new Gauge({
    name: "tce_backup_last_success_bytes",
    help: "Size of the last good backup, scheduled or by hand; 0 when there is none.",
    registers: [registry],
    async collect() {
      this.set((await lastBackup())?.bytes ?? 0);
    },
  });
  new Gauge({
    name: "tce_backup_copy_last_success_timestamp_seconds",
    help: "When a backup was last copied to BACKUP_COPY_TO and read back whole (Unix time); 0 when never.",
    registers: [registry],
    async collect() {
      const [row] = await db.select({ copiedAt: max(backupRuns.copiedAt) }).from(backupRuns);
      this.set((row?.copiedAt ? new Date(row.copiedAt).getTime() : 0) / 1000);
    },
  });
  // Failing: the last try failed, or archiving has stalled without failing (a command that never returns): WAL was
  // written past the last archived segment, and nothing has been archived for longer than archive_timeout (which
  // bounds how long a written segment waits to be finished) plus a margin for archiving it.
  const archiver = async () => {
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
  };
  new Gauge({
    name: "tce_wal_archive_last_success_timestamp_seconds",
    help: "When the database last archived a WAL file (pg_stat_archiver, Unix time); 0 when it never has or does not archive.",
    registers: [registry],
    async collect() {
      this.set((await archiver())?.archived_at ?? 0);
    },
  });
  new Gauge({
    name: "tce_wal_archive_failing",
    help: "1 when archiving is on and the last try to archive a WAL file failed, or WAL was written and none archived for longer than archive_timeout plus 30 s (pg_stat_archiver), else 0.",
    registers: [registry],
    async collect() {
      this.set((await archiver())?.failing ? 1 : 0);
    },
  });
  new Gauge({
    name: "tce_wal_copy_pending_files",
    help: "Archived WAL files of this instance not yet copied to BACKUP_COPY_TO and read back.",
    registers: [registry],
    collect() {
      this.set(archiveCopyProgress.pendingFiles);
    },
  });
  new Gauge({
    name: "tce_wal_copy_last_success_timestamp_seconds",
    help: "When BACKUP_COPY_TO last held every WAL file this instance had archived (Unix time); 0 when never.",
    registers: [registry],
    collect() {
      this.set(archiveCopyProgress.caughtUpAt / 1000);
    },
  });
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
  new Gauge({
    name: "tce_database_pool_waiting_requests",
    help: "Queries of this instance waiting for a free database connection.",
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
  return registry;
}

export type MetricsScrape = { contentType: string; body: string };

/**
 * The `/metrics` answer: undefined (a 404) unless METRICS_TOKEN is set and the request carries it as
 * `Authorization: Bearer <token>`, compared in constant time.
 */
export function createMetricsScraper(
  db: Database,
  config: Pick<Config, "METRICS_TOKEN" | "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
  featureRegistries: readonly Registry[] = [],
) {
  const registry = Registry.merge([
    processMetrics.registry,
    limitsRegistry(config),
    databaseRegistry(db),
    ...featureRegistries,
  ]);
  const token = config.METRICS_TOKEN;
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return async (authorization: string | undefined): Promise<MetricsScrape | undefined> => {
    if (!expected || authorization === undefined) return undefined;
    const given = Buffer.from(authorization);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { contentType: registry.contentType, body: await registry.metrics() };
  };
}
