// The staff inbox at 100,000 and 1,000,000 submissions (BENCH_INBOX_SIZES, comma-separated): for each size,
// seeds a fresh database (scripts/seed-inbox.ts) on its own embedded PostgreSQL, starts the built app on it,
// signs in, times GETs of inbox pages over HTTP and the streamed CSV export (with the app's memory while it
// streams), and prints what EXPLAIN ANALYZE says the list, search and count queries scan; then how each figure
// grows with the size. Part of `npm run bench`; on its own (after `npm run build`): `npx tsx scripts/bench-inbox.ts`.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import pino from "pino";
import { startAppServer } from "#tests/app-server";
import { signInOverHttp } from "#tests/staff";
import { exportBatchQuery } from "../app/features/inbox/export-csv.server";
import { parseInboxFilters } from "../app/features/inbox/inbox-filters.server";
import { inboxPageQuery, newSubmissionCountsQuery } from "../app/features/inbox/list-submissions.server";
import { createStaffUser } from "../app/services/auth/staff-users.server";
import { connectDatabase, type DatabaseConnection } from "../app/services/db/database.server";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { applyMigrations } from "../app/services/db/migrations.server";
import { textTable } from "./bench-table";
import { projectRoot } from "./build-info.mjs";
import { percentile } from "./percentile";
import { INBOX_SEED_SIZE, seedInbox } from "./seed-inbox";

const REQUESTS = 30;
const WARM_UP = 3;
/** Issue 16's goal for every inbox page at a million submissions. */
export const INBOX_P95_GOAL_MS = 100;

/** The sizes measured: BENCH_INBOX_SIZES, or 100,000 and 1,000,000. */
export function inboxBenchSizes(): number[] {
  const sizes = (process.env.BENCH_INBOX_SIZES ?? `${INBOX_SEED_SIZE},${10 * INBOX_SEED_SIZE}`)
    .split(",")
    .map((size) => Number(size.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    throw new Error("BENCH_INBOX_SIZES must list whole numbers of submissions, such as 100000,1000000");
  }
  return sizes;
}

/** The pages timed, and the same filters explained. */
const SCENARIOS = [
  { name: "first page", query: "" },
  { name: "type + status", query: "?type=estimate&status=Contacted" },
  { name: "deep page (1000)", query: "?page=1000" },
  { name: "search (name)", query: "?q=harper.w" },
  { name: "search (phone)", query: "?q=555-0142" },
  { name: "failed deliveries", query: "?delivery=failed" },
] as const;

type Timing = { name: string; path: string; status: number; p50: number; p95: number; max: number };
type Plan = { name: string; scans: string[]; seqScanOnSubmissions: boolean; executionMs: number };
export type InboxBenchResult = {
  submissions: number;
  seedSeconds: number;
  timings: Timing[];
  plans: Plan[];
  /** The app's resident memory before the export and its peak while streaming it. */
  csv: { rows: number; megabytes: number; seconds: number; rssBeforeMb: number; rssPeakMb: number };
};

/** A process's resident memory in MB, from /proc (Linux). */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** Reads the whole export over HTTP while sampling the app's memory every 50 ms. */
async function timeExport(url: string, cookie: string, pid: number) {
  const rssBeforeMb = await residentMb(pid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    residentMb(pid).then(
      (mb) => {
        rssPeakMb = Math.max(rssPeakMb, mb);
      },
      () => undefined,
    );
  }, 50);
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  try {
    const response = await fetch(url, { headers: { cookie } });
    const decoder = new TextDecoder();
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      bytes += chunk.value.byteLength;
      // Header and rows each end in a line break; quoted cells with line breaks would make this an overcount.
      rows += decoder.decode(chunk.value, { stream: true }).split("\n").length - 1;
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    rows: rows - 1,
    megabytes: bytes / 1024 / 1024,
    seconds: (performance.now() - started) / 1000,
    rssBeforeMb,
    rssPeakMb,
  };
}

async function timeRequests(url: string, cookie: string): Promise<{ status: number; milliseconds: number[] }> {
  const milliseconds: number[] = [];
  let status = 0;
  for (let index = 0; index < WARM_UP + REQUESTS; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    status = response.status;
    if (index >= WARM_UP) milliseconds.push(performance.now() - started);
  }
  return { status, milliseconds: milliseconds.sort((a, b) => a - b) };
}

/** The scan nodes of a plan (what each reads, and through which index), and whether submissions is read whole. */
async function explain(
  pool: pg.Pool,
  name: string,
  query: { toSQL: () => { sql: string; params: unknown[] } },
): Promise<Plan> {
  const { sql, params } = query.toSQL();
  const result = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
  const lines = result.rows.map((row) => row["QUERY PLAN"]);
  const scans = lines
    .map((line) => line.trim().replace(/^->\s*/, ""))
    .filter((line) => /Scan/.test(line))
    .map((line) => line.replace(/\s*\(actual.*$/, ""));
  const execution = lines.find((line) => line.startsWith("Execution Time"));
  return {
    name,
    scans: [...new Set(scans)],
    seqScanOnSubmissions: scans.some((scan) => /Seq Scan on submissions/.test(scan)),
    executionMs: Number(/([\d.]+) ms/.exec(execution ?? "")?.[1] ?? Number.NaN),
  };
}

async function explainAll({ db, pool }: DatabaseConnection): Promise<Plan[]> {
  const plans: Plan[] = [];
  for (const scenario of SCENARIOS) {
    const parsed = parseInboxFilters(new URLSearchParams(scenario.query));
    if (parsed.status !== "valid") throw new Error(`bench filter ${scenario.query} is invalid`);
    plans.push(await explain(pool, scenario.name, inboxPageQuery(db, parsed.filters)));
  }
  const counts = newSubmissionCountsQuery();
  plans.push(
    await explain(pool, "new counts", { toSQL: () => new PgDialect({ casing: "snake_case" }).sqlToQuery(counts) }),
  );
  const middle = await pool.query<{ time: string; id: string }>(
    "SELECT created_at::text AS time, id FROM submissions ORDER BY created_at DESC, id DESC OFFSET 50000 LIMIT 1",
  );
  const cursor = middle.rows[0];
  if (!cursor) throw new Error("the seeded database is empty");
  plans.push(
    await explain(
      pool,
      "CSV batch after row 50,000",
      exportBatchQuery(db, { spam: "all" }, { time: cursor.time, id: Number(cursor.id) }),
    ),
  );
  return plans;
}

export async function benchInbox(size = INBOX_SEED_SIZE): Promise<InboxBenchResult> {
  const logger = pino({ level: "warn" });
  const dataDir = await mkdtemp(path.join(tmpdir(), "tce-bench-inbox-"));
  const postgres = await startEmbeddedPostgres({ dataDir, logger });
  const connection = connectDatabase(postgres.url, logger);
  try {
    await applyMigrations(connection.pool, path.join(projectRoot, "drizzle"));
    const seedStarted = performance.now();
    await seedInbox(connection.pool, size);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const password = "inbox bench password 42";
    await createStaffUser(connection.db, { username: "bench", password, role: "staff" });

    const app = await startAppServer({ env: { DATABASE_URL: postgres.url } });
    try {
      const cookie = await signInOverHttp(app.url, "bench", password);
      const timings: Timing[] = [];
      for (const scenario of SCENARIOS) {
        const pagePath = `/admin/inbox${scenario.query}`;
        const { status, milliseconds } = await timeRequests(`${app.url}${pagePath}`, cookie);
        timings.push({
          name: scenario.name,
          path: pagePath,
          status,
          p50: percentile(milliseconds, 0.5),
          p95: percentile(milliseconds, 0.95),
          max: milliseconds.at(-1) ?? Number.NaN,
        });
      }
      const pid = app.process.pid;
      if (pid === undefined) throw new Error("the app has no process id");
      const csv = await timeExport(`${app.url}/admin/inbox/export.csv?spam=all`, cookie, pid);
      return { submissions: size, seedSeconds, timings, plans: await explainAll(connection), csv };
    } finally {
      await app.stop();
    }
  } finally {
    await connection.close();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printInboxBench(result: InboxBenchResult) {
  console.log(
    `\nInbox with ${result.submissions.toLocaleString("en-US")} submissions (seeded in ${result.seedSeconds.toFixed(1)} s); ` +
      `GET over HTTP, signed in, ${REQUESTS} requests each after ${WARM_UP} to warm up:`,
  );
  const header = ["page", "path", "status", "p50 ms", "p95 ms", "max ms"];
  const rows = result.timings.map((t) => [
    t.name,
    t.path,
    String(t.status),
    t.p50.toFixed(1),
    t.p95.toFixed(1),
    t.max.toFixed(1),
  ]);
  console.log(textTable(header, rows, 2));
  console.log(
    `CSV export of all ${result.csv.rows.toLocaleString("en-US")} rows: ${result.csv.megabytes.toFixed(1)} MB in ${result.csv.seconds.toFixed(1)} s; ` +
      `app memory ${result.csv.rssBeforeMb.toFixed(0)} MB before, ${result.csv.rssPeakMb.toFixed(0)} MB at most while streaming`,
  );
  console.log("\nEXPLAIN ANALYZE of the inbox queries (scan nodes; no Seq Scan on submissions expected):");
  for (const plan of result.plans) {
    const verdict = plan.seqScanOnSubmissions ? "SEQ SCAN ON SUBMISSIONS" : "index";
    console.log(`  ${plan.name} (${plan.executionMs.toFixed(1)} ms, ${verdict}):`);
    for (const scan of plan.scans) console.log(`      ${scan}`);
  }
}

/** How each figure grows from the first size measured to the last, against the p95 goal. */
export function printInboxGrowth(results: readonly InboxBenchResult[]) {
  const first = results[0];
  const last = results.at(-1);
  if (!first || !last || first === last) return;
  const sizes = `${first.submissions.toLocaleString("en-US")} -> ${last.submissions.toLocaleString("en-US")}`;
  console.log(`\nInbox p95 as it grows (${sizes} submissions; goal at the largest: under ${INBOX_P95_GOAL_MS} ms):`);
  const header = ["page", "p95 ms (small)", "p95 ms (large)", "growth", "goal"];
  const rows = last.timings.map((timing) => {
    const before = first.timings.find((candidate) => candidate.name === timing.name)?.p95 ?? Number.NaN;
    return [
      timing.name,
      before.toFixed(1),
      timing.p95.toFixed(1),
      `x${(timing.p95 / before).toFixed(2)}`,
      timing.p95 < INBOX_P95_GOAL_MS ? "met" : "MISSED",
    ];
  });
  rows.push([
    "CSV export, peak app memory",
    `${first.csv.rssPeakMb.toFixed(0)} MB`,
    `${last.csv.rssPeakMb.toFixed(0)} MB`,
    `x${(last.csv.rssPeakMb / first.csv.rssPeakMb).toFixed(2)}`,
    last.csv.rssPeakMb < 2 * first.csv.rssPeakMb ? "flat" : "GROWS",
  ]);
  console.log(textTable(header, rows));
}

/** Every size of BENCH_INBOX_SIZES, one after the other. */
export async function benchInboxSizes(): Promise<InboxBenchResult[]> {
  const results: InboxBenchResult[] = [];
  for (const size of inboxBenchSizes()) {
    console.log(`bench: inbox with ${size.toLocaleString("en-US")} submissions`);
    results.push(await benchInbox(size));
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const results = await benchInboxSizes();
    for (const result of results) printInboxBench(result);
    printInboxGrowth(results);
  } catch (error) {
    console.error("bench: inbox failed:", error);
    process.exitCode = 1;
  }
}
