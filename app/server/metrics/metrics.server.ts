import { timingSafeEqual } from "node:crypto";
import { and, count, desc, gt, isNotNull, max, min, sql } from "drizzle-orm";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.server";
import { backupRuns, deliveries, loginThrottles } from "../db/schema.server";

/**
 * What the process counts as it goes (attempts, sign-ins, request times), kept in one registry for the life of
 * the process: Prometheus takes the rate of a counter per instance, so these are per instance by nature.
 */
const processRegistry = new Registry();

export const deliveryAttempts = new Counter({
  name: "tce_delivery_attempts_total",
  help: "Delivery attempts made by this instance, by target, channel and outcome (delivered, retry, failed).",
  labelNames: ["target", "channel", "outcome"] as const,
  registers: [processRegistry],
});

export const signInFailures = new Counter({
  name: "tce_sign_in_failures_total",
  help: "Sign-in checks (password or code) answered wrong on this instance.",
  registers: [processRegistry],
});

export const signInLocks = new Counter({
  name: "tce_sign_in_locks_total",
  help: "Sign-in locks set by this instance (an account from an address, or an address, reached its limit).",
  registers: [processRegistry],
});

export const documentsBuilt = new Counter({
  name: "tce_documents_built_total",
  help: "Documents (PDFs) built by this instance for the forms' submissions, by form type.",
  labelNames: ["type"] as const,
  registers: [processRegistry],
});

export const httpRequestDuration = new Histogram({
  name: "tce_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by route, method and status class.",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

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
export function createMetricsScraper(db: Database, token: string | undefined) {
  const registry = Registry.merge([processRegistry, databaseRegistry(db)]);
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return async (authorization: string | undefined): Promise<MetricsScrape | undefined> => {
    if (!expected || authorization === undefined) return undefined;
    const given = Buffer.from(authorization);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { contentType: registry.contentType, body: await registry.metrics() };
  };
}
