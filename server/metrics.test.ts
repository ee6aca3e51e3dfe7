import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { postEstimate } from "#tests/estimate-post";
import { allRated, peerReviewFields } from "#tests/peer-review-fixture";
import { startStaffSession } from "#tests/staff-session";
import { createTestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { PHOTO_PREVIEW_FIELD, PHOTO_PREVIEW_PATH } from "~/features/estimate-checklist/photo-preview";
import { findFreePort } from "~/services/free-port.server";
import { createMetricsScraper } from "~/services/metrics/metrics.server";

const TOKEN = "a-metrics-token-for-the-tests-0123456789";
let app: AppServer;
let staffCookie: string;
let staffUsername: string;

// The built app, as it runs: React Router's bundle counts sign-ins and documents, the server's answers /metrics.
// One worker and one place in its queue, so that three photos at once fill the work pool.
beforeAll(async () => {
  app = await startAppServer({
    env: {
      METRICS_TOKEN: TOKEN,
      WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate",
      PHOTO_WORKERS: "1",
      PHOTO_QUEUE_LIMIT: "1",
    },
  });
  const staff = await startStaffSession({ dataDir: app.dataDir, role: "staff", label: "metrics" });
  staffCookie = staff.cookie;
  staffUsername = staff.user.username;
  for (let index = 0; index < 3; index += 1) {
    expect((await postEstimate(`${app.url}/lighting`, { comments: `Metrics lead ${index}` })).reference).toMatch(
      /^EST-/,
    );
  }
  for (const page of ["/admin", "/admin/inbox/41", "/admin/inbox/42", "/Quiz", "/admin/inbox.data"]) {
    await fetch(`${app.url}${page}`, { redirect: "manual" });
  }
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

const scrape = (authorization?: string) =>
  fetch(`${app.url}/metrics`, { headers: authorization ? { authorization } : {} });
const metrics = async () => (await scrape(`Bearer ${TOKEN}`)).text();
/** The value of one series (`name` with its labels as printed), or undefined when the scrape has none. */
const seriesValue = (body: string, series: string): number | undefined => {
  const line = body.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

function run(command: string, args: string[], input?: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => resolve({ code, output }));
    child.stdin.end(input ?? "");
  });
}

describe("GET /metrics of the built app", () => {
  it("answers 404 without the token, with a wrong one, and when METRICS_TOKEN is unset", async () => {
    expect((await scrape()).status).toBe(404);
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(404);
    expect((await scrape(TOKEN)).status).toBe(404);
    const database = await createTestDatabase();
    try {
      const unset = createMetricsScraper(database.db, {
        METRICS_TOKEN: undefined,
        PHOTO_WORKERS: 1,
        PHOTO_QUEUE_LIMIT: 1,
      });
      expect(await unset("Bearer undefined")).toBeUndefined();
    } finally {
      await database.drop();
    }
  });

  it("answers the Prometheus text format that promtool accepts: deliveries, leads, request times by route, the process", async () => {
    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const body = await answer.text();
    expect(seriesValue(body, "tce_deliveries_pending")).toBe(3);
    expect(seriesValue(body, "tce_deliveries_oldest_pending_age_seconds")).toBeGreaterThan(0);
    expect(seriesValue(body, "tce_leads_waiting")).toBe(3);
    expect(seriesValue(body, "tce_leads_waiting_oldest_age_seconds")).toBeGreaterThan(0);
    expect(seriesValue(body, "tce_deliveries_failed_unacknowledged")).toBe(0);
    const requests = (route: string, status: string, method = "GET") =>
      seriesValue(
        body,
        `tce_http_request_duration_seconds_count{route="${route}",method="${method}",status="${status}"}`,
      );
    // The build's files (the prerendered pages among them) are answered before Express, untimed.
    expect(requests("routes/admin/login", "2xx")).toBe(1);
    expect(requests("service-lighting", "2xx", "POST")).toBe(3);
    // An upper-case path is redirected to its page's own.
    expect(requests("routes/quiz", "3xx")).toBe(1);
    expect(requests("routes/admin/inbox-submission", "3xx")).toBe(2);
    // A single-fetch data request is its page's: a signed-out one is sent to sign in.
    expect(requests("routes/admin/inbox", "2xx")).toBe(1);
    expect(seriesValue(body, 'tce_database_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    // Node's own series, under their usual names, and the limit resident memory is held against.
    expect(seriesValue(body, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(seriesValue(body, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(seriesValue(body, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(seriesValue(body, "tce_memory_limit_bytes")).toBeGreaterThan(
      seriesValue(body, "process_resident_memory_bytes") ?? 0,
    );
    expect(seriesValue(body, "tce_work_pool_queue_limit")).toBe(1);
    expect(seriesValue(body, "tce_work_pool_workers")).toBe(1);
    for (const name of [
      "tce_delivery_attempts_total",
      "tce_sign_in_locks_active",
      "tce_backup_last_success_timestamp_seconds",
      "tce_backup_last_success_bytes",
      "tce_database_pool_waiting_requests",
      "tce_work_pool_queued_tasks",
      "tce_work_pool_running_tasks",
    ]) {
      expect(body).toContain(`# TYPE ${name} `);
    }
    // promtool's only remarks are on three of prom-client's own gauge names, kept as Node.js dashboards read them.
    const check = await run("promtool", ["check", "metrics"], body);
    expect(check.output.trim().split("\n")).toEqual(
      ["handles", "requests", "resources"].map(
        (what) => `nodejs_active_${what}_total non-counter metrics should not have "_total" suffix`,
      ),
    );
  });

  it("counts wrong passwords and the lock they lead to, sent as a page's form or as a data request", async () => {
    const before = await metrics();
    const signIn = (page: string) =>
      fetch(`${app.url}${page}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: staffUsername, password: "not the password at all" }),
      });
    for (const page of ["/admin", "/admin", "/admin.data", "/admin.data"])
      expect((await signIn(page)).status).toBe(401);
    expect((await signIn("/admin.data")).status).toBe(429);
    const after = await metrics();
    expect(seriesValue(after, "tce_sign_in_failures_total")).toBe(
      (seriesValue(before, "tce_sign_in_failures_total") ?? 0) + 5,
    );
    expect(seriesValue(after, "tce_sign_in_locks_total")).toBe(
      (seriesValue(before, "tce_sign_in_locks_total") ?? 0) + 1,
    );
    expect(seriesValue(after, "tce_sign_in_locks_active")).toBe(1);
    expect(
      seriesValue(
        after,
        'tce_http_request_duration_seconds_count{route="routes/admin/login",method="POST",status="4xx"}',
      ),
    ).toBe(5);
  });

  it("counts the documents built for the forms' submissions", async () => {
    expect(await metrics()).not.toMatch(/^tce_documents_built_total\{/m);
    const review = await fetch(`${app.url}/admin/quick-links/peer-review`, {
      method: "POST",
      headers: { cookie: staffCookie, origin: app.url },
      body: new URLSearchParams(peerReviewFields("Sam Sparks", allRated("4"))),
    });
    expect(review.status, await review.text()).toBe(200);
    expect(seriesValue(await metrics(), 'tce_documents_built_total{type="peer-review"}')).toBe(1);
  });

  it("shows the work pool's running and queued tasks while photos wait for its one worker", async () => {
    // Fine grain is slow to decode, turn and encode again: each photo holds the worker for a while.
    const grain = { type: "gaussian", mean: 120, sigma: 40 } as const;
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#777", noise: grain } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const preview = () => {
      const form = new FormData();
      form.append(PHOTO_PREVIEW_FIELD, new File([new Uint8Array(photo)], "site.jpg", { type: "image/jpeg" }));
      return fetch(`${app.url}${PHOTO_PREVIEW_PATH}`, {
        method: "POST",
        headers: { cookie: staffCookie, origin: app.url },
        body: form,
      }).then((answer) => answer.status);
    };
    const previews = [preview(), preview()];
    const full = await waitFor("one photo running in the work pool and one in its queue", async () => {
      const body = await metrics();
      return seriesValue(body, "tce_work_pool_running_tasks") === 1 &&
        seriesValue(body, "tce_work_pool_queued_tasks") === 1
        ? body
        : undefined;
    });
    expect(seriesValue(full, "tce_work_pool_queue_limit")).toBe(1);
    expect(await Promise.all(previews)).toEqual([200, 200]);
    const idle = await metrics();
    expect(seriesValue(idle, "tce_work_pool_queued_tasks")).toBe(0);
    expect(seriesValue(idle, "tce_work_pool_running_tasks")).toBe(0);
  });

  it("is scraped by a real Prometheus server, whose API returns the pending-deliveries series", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tce-prometheus-"));
    const prometheusPort = await findFreePort();
    const target = new URL(app.url).host;
    await writeFile(
      path.join(dir, "prometheus.yml"),
      [
        "global:",
        "  scrape_interval: 1s",
        "scrape_configs:",
        "  - job_name: tri-county-electric",
        "    authorization:",
        "      type: Bearer",
        `      credentials: ${TOKEN}`,
        "    static_configs:",
        `      - targets: ["${target}"]`,
        "",
      ].join("\n"),
    );
    const prometheus = spawn(
      "prometheus",
      [
        `--config.file=${path.join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${path.join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
      ],
      { stdio: "ignore" },
    );
    try {
      const series = await waitFor("Prometheus to have scraped tce_deliveries_pending", async () => {
        const answer = await fetch(
          `http://127.0.0.1:${prometheusPort}/api/v1/query?query=tce_deliveries_pending`,
        ).catch(() => undefined);
        if (!answer?.ok) return undefined;
        const body = (await answer.json()) as {
          data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
        };
        return body.data.result[0];
      });
      expect(series.metric).toMatchObject({ __name__: "tce_deliveries_pending", job: "tri-county-electric" });
      expect(series.value[1]).toBe("3");
    } finally {
      const exited = new Promise((resolve) => prometheus.once("exit", resolve));
      prometheus.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
