import { timingSafeEqual } from "node:crypto";
import { totalmem } from "node:os";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import { onePerProcess } from "../one-per-process.server";
import { workPoolLoad } from "../work-pool/work-pool.server";
import { databaseRegistry } from "./database-metrics.server";
import { readGauge } from "./read-gauge.server";

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
  readGauge(
    registry,
    "tce_work_pool_queued_tasks",
    "Photo and PDF tasks of this instance waiting for a free worker.",
    () => workPoolLoad().queued,
  );
  readGauge(
    registry,
    "tce_work_pool_running_tasks",
    "Photo and PDF tasks of this instance running in a worker now.",
    () => workPoolLoad().running,
  );
  readGauge(
    registry,
    "tce_work_pool_queue_limit",
    "Tasks the work pool's queue holds at most (PHOTO_QUEUE_LIMIT); one more is refused.",
    () => config.PHOTO_QUEUE_LIMIT,
  );
  readGauge(
    registry,
    "tce_work_pool_workers",
    "Worker threads the work pool runs at most (PHOTO_WORKERS).",
    () => config.PHOTO_WORKERS,
  );
  readGauge(
    registry,
    "tce_memory_limit_bytes",
    "Memory this process may use: its control group's limit (systemd MemoryMax=) when set, else the machine's.",
    memoryLimitBytes,
  );
  return registry;
}

/** The control group's limit where there is one (Node reports no limit as 2^64), else all of the machine's memory. */
function memoryLimitBytes(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const machine = totalmem();
  return constrained > 0 && constrained < machine ? constrained : machine;
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
