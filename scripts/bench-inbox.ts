// The staff inbox with 100,000 submissions: seeds a fresh database (scripts/seed-inbox.ts) on its own
// embedded PostgreSQL, starts the built app on it, signs in, and times GETs of inbox pages over HTTP; then
// prints what EXPLAIN ANALYZE says the list, search and count queries scan. Part of `npm run bench`; on its
// own (after `npm run build`): `npx tsx scripts/bench-inbox.ts`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type pg from "pg";
import pino from "pino";
import { exportBatchQuery } from "../app/features/inbox/export-csv.server";
import { parseInboxFilters } from "../app/features/inbox/inbox-filters";
import { inboxPageQuery, newSubmissionCountsQuery } from "../app/features/inbox/list-submissions.server";
import { createStaffUser } from "../app/server/auth/staff-users.server";
import { connectDatabase, type DatabaseConnection } from "../app/server/db/database.server";
import { startEmbeddedPostgres } from "../app/server/db/embedded-postgres.server";
import { applyMigrations } from "../app/server/db/migrations.server";
import { startAppServer } from "../tests/support/app-server";
import { signInOverHttp } from "../tests/support/staff";
import { projectRoot } from "./build-info.mjs";
import { percentile } from "./percentile";
import { INBOX_SEED_SIZE, seedInbox } from "./seed-inbox";

const REQUESTS = 30;
const WARM_UP = 3;

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
  csv: { rows: number; megabytes: number; seconds: number };
};

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
  plans.push(await explain(pool, "new counts", newSubmissionCountsQuery(db)));
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

export async function benchInbox(): Promise<InboxBenchResult> {
  const logger = pino({ level: "warn" });
  const dataDir = await mkdtemp(path.join(tmpdir(), "tce-bench-inbox-"));
  const postgres = await startEmbeddedPostgres({ dataDir, logger });
  const connection = connectDatabase(postgres.url, logger);
  try {
    await applyMigrations(connection.pool, path.join(projectRoot, "drizzle"));
    const seedStarted = performance.now();
    await seedInbox(connection.pool, INBOX_SEED_SIZE);
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
      const csvStarted = performance.now();
      const csv = await (await fetch(`${app.url}/admin/inbox/export.csv?spam=all`, { headers: { cookie } })).text();
      const csvSeconds = (performance.now() - csvStarted) / 1000;
      return {
        submissions: INBOX_SEED_SIZE,
        seedSeconds,
        timings,
        plans: await explainAll(connection),
        csv: {
          // Header and rows each end in CRLF; quoted cells with line breaks would make this an overcount.
          rows: csv.split("\r\n").length - 2,
          megabytes: Buffer.byteLength(csv) / 1024 / 1024,
          seconds: csvSeconds,
        },
      };
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
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)));
  console.log(`${line(header).join("  ")}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row).join("  "));
  console.log(
    `CSV export of all ${result.csv.rows.toLocaleString("en-US")} rows: ${result.csv.megabytes.toFixed(1)} MB in ${result.csv.seconds.toFixed(1)} s`,
  );
  console.log("\nEXPLAIN ANALYZE of the inbox queries (scan nodes; no Seq Scan on submissions expected):");
  for (const plan of result.plans) {
    const verdict = plan.seqScanOnSubmissions ? "SEQ SCAN ON SUBMISSIONS" : "index";
    console.log(`  ${plan.name} (${plan.executionMs.toFixed(1)} ms, ${verdict}):`);
    for (const scan of plan.scans) console.log(`      ${scan}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    printInboxBench(await benchInbox());
  } catch (error) {
    console.error("bench: inbox failed:", error);
    process.exitCode = 1;
  }
}
