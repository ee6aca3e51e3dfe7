import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validEstimate } from "#tests/estimate-fixture";
import { formActionHarness } from "#tests/form-action";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { throttledAttempt } from "~/server/auth/login-throttle.server";
import { findFreePort } from "~/server/free-port.server";
import { metricsRoute } from "./metrics-route";
import { measureRequests } from "./request-metrics";

const TOKEN = "a-metrics-token-for-the-tests-0123456789";
let database: TestDatabase;
let server: Server;
let baseUrl: string;
let port: number;

/** The routes of a build, as the request timer reads them: the root, the home page, a page and one with a parameter. */
const build = {
  routes: {
    root: { id: "root", path: "" },
    "routes/home": { id: "routes/home", parentId: "root", index: true },
    "routes/quiz": { id: "routes/quiz", parentId: "root", path: "quiz" },
    "routes/admin/inbox-submission": {
      id: "routes/admin/inbox-submission",
      parentId: "root",
      path: "admin/inbox/:submissionId",
    },
  },
} as unknown as ServerBuild;

beforeAll(async () => {
  database = await createTestDatabase();
  const harness = formActionHarness({
    path: "/",
    database: () => database.db,
    env: { WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate" },
    clientIp: "192.0.2.60",
  });
  for (let index = 0; index < 3; index += 1) {
    await submitEstimate(harness.post({ ...validEstimate, submissionKey: crypto.randomUUID() }), harness.contextFor());
  }
  const app = express();
  app.use(measureRequests(build));
  app.get("/metrics", metricsRoute(database.db, TOKEN));
  // Where the app hands pages to React Router.
  app.get("/{*path}", (req, res) => {
    res.status(req.path === "/quiz" ? 200 : 404).send(req.path === "/quiz" ? "a page" : "Not found");
  });
  port = await findFreePort();
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(port, "127.0.0.1", () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${port}`;
  for (const path of ["/quiz", "/", "/admin/inbox/41", "/admin/inbox/42", "/Quiz"]) await fetch(`${baseUrl}${path}`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await database.drop();
});

const scrape = (authorization?: string) =>
  fetch(`${baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

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

describe("GET /metrics", () => {
  it("answers 404 without the token, with a wrong one, and when METRICS_TOKEN is unset", async () => {
    expect((await scrape()).status).toBe(404);
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(404);
    expect((await scrape(TOKEN)).status).toBe(404);
    const unset = express();
    unset.get("/metrics", metricsRoute(database.db, undefined));
    unset.use((_req, res) => {
      res.status(404).end();
    });
    const unsetServer = unset.listen(0, "127.0.0.1");
    await new Promise((resolve) => unsetServer.once("listening", resolve));
    const address = unsetServer.address();
    const unsetPort = typeof address === "object" && address ? address.port : 0;
    const answer = await fetch(`http://127.0.0.1:${unsetPort}/metrics`, {
      headers: { authorization: "Bearer undefined" },
    });
    expect(answer.status).toBe(404);
    await new Promise((resolve) => unsetServer.close(resolve));
  });

  it("answers the Prometheus text format that promtool accepts, with the pending deliveries and request times by route", async () => {
    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const body = await answer.text();
    expect(body).toMatch(/^tce_deliveries_pending 3$/m);
    expect(body).toMatch(/^tce_deliveries_oldest_pending_age_seconds \d/m);
    expect(body).toMatch(
      /^tce_http_request_duration_seconds_count\{route="routes\/quiz",method="GET",status="2xx"\} 1$/m,
    );
    // Routes match without regard to case, as React Router matches them.
    expect(body).toMatch(
      /^tce_http_request_duration_seconds_count\{route="routes\/quiz",method="GET",status="4xx"\} 1$/m,
    );
    expect(body).toMatch(
      /^tce_http_request_duration_seconds_count\{route="routes\/home",method="GET",status="4xx"\} 1$/m,
    );
    expect(body).toMatch(
      /^tce_http_request_duration_seconds_count\{route="routes\/admin\/inbox-submission",method="GET",status="4xx"\} 2$/m,
    );
    expect(body).toMatch(
      /^tce_http_request_duration_seconds_count\{route="unmatched",method="GET",status="4xx"\} \d+$/m,
    );
    expect(body).toMatch(/^tce_database_pool_connections\{state="idle"\} \d+$/m);
    for (const name of [
      "tce_delivery_attempts_total",
      "tce_sign_in_failures_total",
      "tce_sign_in_locks_total",
      "tce_sign_in_locks_active",
      "tce_backup_last_success_timestamp_seconds",
      "tce_backup_last_success_bytes",
      "tce_database_pool_waiting_requests",
    ]) {
      expect(body).toContain(`# TYPE ${name} `);
    }
    const check = await run("promtool", ["check", "metrics"], body);
    expect(check.output).toBe("");
    expect(check.code).toBe(0);
  });

  it("counts sign-in failures as they happen", async () => {
    const failures = async () =>
      Number(/^tce_sign_in_failures_total (\d+)$/m.exec(await (await scrape(`Bearer ${TOKEN}`)).text())?.[1]);
    const before = await failures();
    await throttledAttempt(database.db, { username: "nobody", clientIp: "192.0.2.61" }, async () => false);
    expect(await failures()).toBe(before + 1);
  });

  it("is scraped by a real Prometheus server, whose API returns the pending-deliveries series", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tce-prometheus-"));
    const prometheusPort = await findFreePort();
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
        `      - targets: ["127.0.0.1:${port}"]`,
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
