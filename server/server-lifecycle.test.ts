import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, runAppExpectingFailure, startAppServer } from "#tests/app-server";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { isProcessRunning } from "../app/services/db/embedded-postgres.server";

function postmasterPid(dataDir: string): Promise<number | undefined> {
  return readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8").then(
    (content) => Number.parseInt(content.split("\n")[0] ?? "", 10),
    () => undefined,
  );
}

describe("the built app with its embedded PostgreSQL", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer();
  });
  afterAll(() => app.stop());

  it("answers health and readiness checks", async () => {
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("keeps its database under DATA_DIR/postgres", async () => {
    expect(existsSync(path.join(app.dataDir, "postgres/PG_VERSION"))).toBe(true);
    expect(await postmasterPid(app.dataDir)).toBeGreaterThan(0);
  });

  it("serves every public page and answers 404 with a friendly page for an unknown URL", async () => {
    for (const pagePath of ["/", "/learnmore", "/lighting", "/healthcare", "/education", "/commercial"]) {
      const response = await fetch(`${app.url}${pagePath}`);
      expect(response.status, pagePath).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
    }
    const missing = await fetch(`${app.url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("We couldn&#x27;t find that page");
  });

  it("redirects a trailing slash to the canonical address, keeping the query", async () => {
    const response = await fetch(`${app.url}/learnmore/?ref=flyer`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/learnmore?ref=flyer");
  });

  it("caches hashed assets for a year and revalidates pages", async () => {
    // The careers page loads React's hashed bundles; the marketing pages inline their one script.
    const html = await (await fetch(`${app.url}/apply`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const assetResponse = await fetch(`${app.url}${asset}`);
    expect(assetResponse.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${app.url}/`)).headers.get("cache-control")).toBe("no-cache");
  });

  it("logs one structured line per request", async () => {
    // A parameter name, not a value: the access log keeps the names of a query and leaves its values out.
    const marker = `/healthz?probe${Date.now()}`;
    await fetch(`${app.url}${marker}`);
    const lines = (await app.flushedOutput()).filter((line) => line.includes(marker));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? "{}");
    expect(entry).toMatchObject({ req: { method: "GET", url: marker }, res: { statusCode: 200 } });
    expect(typeof entry.responseTime).toBe("number");
  });

  it("says which request a handler's own log line is about", async () => {
    const marker = `/forms/estimate?probe${Date.now()}`;
    const refused = await fetch(`${app.url}${marker}`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "firstName=Avery",
    });
    expect(refused.status).toBe(403);
    const lines = (await app.flushedOutput()).filter((line) => line.includes(marker)).map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({ msg: "cross-site request refused", req: expect.objectContaining({ url: marker }) }),
      expect.objectContaining({ msg: "request completed", res: { statusCode: 403 } }),
    ]);
  });

  it("logs a request whose client left before the answer as aborted", async () => {
    const marker = `/forms/estimate?left${Date.now()}`;
    const { port } = new URL(app.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    // A body announced and never sent: the server is still waiting for it when the client goes.
    socket.write(
      `POST ${marker} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nfirstName=`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const entry = await app.waitForLine(marker);
    expect(JSON.parse(entry)).toMatchObject({ msg: "request aborted", req: { method: "POST", url: marker } });
  });
});

describe("starting and stopping", () => {
  it("exits 0 on SIGTERM after stopping its embedded PostgreSQL", async () => {
    const app = await startAppServer();
    const pid = await postmasterPid(app.dataDir);
    expect(pid).toBeGreaterThan(0);
    expect(await app.stop("SIGTERM")).toBe(0);
    expect(isProcessRunning(pid as number)).toBe(false);
    expect(app.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });

  it("stops cleanly on Ctrl-C, which a terminal sends to the app and its PostgreSQL at once", async () => {
    const app = await startAppServer();
    const pid = await postmasterPid(app.dataDir);
    process.kill(-(app.process.pid as number), "SIGINT");
    expect(await app.stop()).toBe(0);
    expect(isProcessRunning(pid as number)).toBe(false);
  });

  it("recovers after a crash (kill -9) with no manual step", async () => {
    const first = await startAppServer();
    const orphan = await postmasterPid(first.dataDir);
    expect(await first.stop("SIGKILL")).toBeNull();
    expect(isProcessRunning(orphan as number)).toBe(true);

    const second = await startAppServer({ dataDir: first.dataDir });
    try {
      expect(isProcessRunning(orphan as number)).toBe(false);
      expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it("refuses to start on a bad setting, naming the variable in one line", async () => {
    const { code, output } = await runAppExpectingFailure({ PORT: "eighty" });
    expect(code).toBe(1);
    expect(output.trim()).toBe('Invalid configuration: PORT must be a number (got "eighty")');
  });
});

describe("with DATABASE_URL", () => {
  let database: TestDatabase;
  let app: AppServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startAppServer({ env: { DATABASE_URL: database.url } });
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it("uses that server and starts no PostgreSQL of its own", async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    expect(existsSync(path.join(app.dataDir, "postgres"))).toBe(false);
    const sessions = await database.pool.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    expect(sessions.rows[0].n).toBeGreaterThan(0);
  });

  it("answers 503 on /readyz while the database is unreachable", async () => {
    await database.setReachable(false);
    try {
      const response = await fetch(`${app.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "not ready", reason: "database unavailable" });
    } finally {
      await database.setReachable(true);
    }
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it("answers 503 on /readyz while the database answers reads but refuses writes", async () => {
    // What a full disk or a failover to a read-only standby looks like from the app: SELECT still works.
    const setReadOnly = async (readOnly: boolean) => {
      const client = await database.pool.connect();
      try {
        await client.query("BEGIN READ WRITE");
        await client.query(`ALTER DATABASE ${database.name} SET default_transaction_read_only = ${readOnly}`);
        await client.query("COMMIT");
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        );
      } finally {
        client.release(true);
      }
    };
    await setReadOnly(true);
    try {
      // The app's first query may still meet a connection cut by the change; it then reconnects.
      let answer: unknown;
      for (let tries = 0; tries < 20; tries++) {
        const response = await fetch(`${app.url}/readyz`);
        expect(response.status).toBe(503);
        answer = await response.json();
        if ((answer as { reason?: string }).reason !== "database unavailable") break;
      }
      expect(answer).toEqual({ status: "not ready", reason: "database refuses writes" });
    } finally {
      await setReadOnly(false);
    }
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });
});
