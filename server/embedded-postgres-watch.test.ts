import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AppServer, runAppExpectingFailure, startAppServer } from "#tests/app-server";
import { postEstimate } from "#tests/estimate-post";
import { isProcessRunning } from "../app/services/db/embedded-postgres.server";

/** The PID and port PostgreSQL wrote into its lock file, or undefined while there is none. */
async function postmaster(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const content = await readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8").catch(() => undefined);
  if (!content) return undefined;
  const lines = content.split("\n");
  return { pid: Number.parseInt(lines[0] ?? "", 10), port: Number.parseInt(lines[3] ?? "", 10) };
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves with the app's exit code once it exits by itself. */
function exitCodeOf(app: AppServer): Promise<number | null> {
  if (app.process.exitCode !== null) return Promise.resolve(app.process.exitCode);
  return new Promise((resolve) => app.process.once("exit", (code) => resolve(code)));
}

const status = (url: string) => fetch(url).then((response) => response.status);

/** The environment startAppServer gives the app, for a start that is expected to fail. */
function appEnv(dataDir: string, extra: Record<string, string> = {}) {
  return {
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
    ...extra,
  };
}

describe("the embedded PostgreSQL, watched", () => {
  const apps: AppServer[] = [];
  const listeners: Server[] = [];
  afterEach(async () => {
    // SIGTERM, so that each app stops its PostgreSQL too (after kill -9 it would be left running).
    for (const app of apps.splice(0)) await app.stop("SIGTERM");
    for (const listener of listeners.splice(0)) await new Promise((resolve) => listener.close(resolve));
  });

  async function start(options: Parameters<typeof startAppServer>[0] = {}) {
    const app = await startAppServer(options);
    apps.push(app);
    return app;
  }

  it("refuses a second app on the same DATA_DIR and leaves the first one's database alone", async () => {
    const first = await start();
    const before = await postmaster(first.dataDir);

    const { code, output } = await runAppExpectingFailure(appEnv(first.dataDir));

    expect(code).toBe(1);
    expect(output).toContain(
      `DATA_DIR ${first.dataDir} is in use by another running app (pid ${first.process.pid}): stop it first, or give this one its own DATA_DIR`,
    );
    expect(await postmaster(first.dataDir)).toEqual(before);
    expect(isProcessRunning(before?.pid ?? 0)).toBe(true);
    expect(await status(`${first.url}/readyz`)).toBe(200);
    expect((await postEstimate(`${first.url}/lighting`)).reference).toMatch(/^EST-/);
  });

  it("checks the HTTP port before it touches the database", async () => {
    const busy = createServer();
    listeners.push(busy);
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    const dataDir = await mkdtemp(path.join(tmpdir(), "tce-busy-port-"));

    const { code, output } = await runAppExpectingFailure(appEnv(dataDir, { PORT: String(port) }));

    expect(code).toBe(1);
    expect(output).toContain(`PORT ${port} on 127.0.0.1 is already in use`);
    expect(existsSync(path.join(dataDir, "postgres"))).toBe(false);
  });

  it("starts its PostgreSQL again when it dies, on the same port, and keeps taking requests", async () => {
    const app = await start();
    const before = await postmaster(app.dataDir);
    if (!before) throw new Error("no postmaster.pid");

    process.kill(before.pid, "SIGKILL");

    const after = await waitFor("a new PostgreSQL", async () => {
      const now = await postmaster(app.dataDir);
      return now && now.pid !== before.pid && isProcessRunning(now.pid) && now;
    });
    expect(after.port).toBe(before.port);
    await waitFor("the app to be ready again", async () => (await status(`${app.url}/readyz`)) === 200);
    expect(await status(`${app.url}/healthz`)).toBe(200);
    expect((await postEstimate(`${app.url}/lighting`)).reference).toMatch(/^EST-/);
    expect(app.output.some((line) => line.includes("embedded PostgreSQL exited unexpectedly"))).toBe(true);
  });

  it("fails /healthz while its PostgreSQL is gone and exits non-zero when it cannot start it again", async () => {
    const app = await start();
    const before = await postmaster(app.dataDir);
    if (!before) throw new Error("no postmaster.pid");
    const clusterDir = path.join(app.dataDir, "postgres");
    // As root the server runs as the postgres user, which can no longer open its cluster.
    await chmod(clusterDir, 0o000);
    try {
      process.kill(before.pid, "SIGKILL");
      await waitFor("/healthz to fail", async () => (await status(`${app.url}/healthz`)) === 503);
      expect(await exitCodeOf(app)).toBe(1);
    } finally {
      await chmod(clusterDir, 0o700);
    }
    expect(app.output.some((line) => line.includes("died and did not start again"))).toBe(true);
  });

  it("exits 0 on SIGTERM right after its PostgreSQL was killed", async () => {
    const app = await start();
    const before = await postmaster(app.dataDir);
    if (!before) throw new Error("no postmaster.pid");

    process.kill(before.pid, "SIGKILL");
    expect(await app.stop("SIGTERM")).toBe(0);
  });

  it("keeps the embedded server's port in DATA_DIR across restarts of the app", async () => {
    const first = await start();
    const before = await postmaster(first.dataDir);
    expect(await first.stop("SIGTERM")).toBe(0);
    const saved = Number((await readFile(path.join(first.dataDir, "postgres-port"), "utf8")).trim());
    expect(saved).toBe(before?.port);

    const second = await start({ dataDir: first.dataDir });
    expect((await postmaster(second.dataDir))?.port).toBe(saved);
  });

  it("says in one line that the postgres user cannot reach a DATA_DIR under a private directory", async () => {
    const privateDir = await mkdtemp(path.join(tmpdir(), "tce-private-"));
    await chmod(privateDir, 0o700);
    const dataDir = path.join(privateDir, "data");
    await mkdir(dataDir);

    const { code, output } = await runAppExpectingFailure(appEnv(dataDir));

    expect(code).toBe(1);
    expect(output).toContain(
      `DATA_DIR ${dataDir} is inside ${privateDir} (mode 700), which the "postgres" user that runs the embedded PostgreSQL cannot enter: set DATA_DIR to a directory outside it (for example /var/lib/tri-county-electric), or set DATABASE_URL`,
    );
    expect(output).not.toContain("Permission denied");
  });
});
