import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { sourceFingerprint } from "../scripts/build-info.mjs";

/** What must never reach a browser: the failed SQL, its parameters, a stack trace, a source path. */
const INTERNALS = /setup_tokens|token_hash|Failed query|params:|\n\s+at |node_modules|\.ts:\d+|\.js:\d+/;

describe("a database failure with NODE_ENV=development", () => {
  let database: TestDatabase;
  let app: AppServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startAppServer({
      env: { DATABASE_URL: database.url, NODE_ENV: "development", SESSION_SECRET: undefined },
    });
    // The setup page's query now fails in PostgreSQL, as a broken migration or a lost table would.
    await database.db.execute(sql`ALTER TABLE setup_tokens RENAME TO setup_tokens_gone`);
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it.each([["/admin/setup?token=abc"], ["/admin/setup.data?token=abc"]])(
    "answers %s with 500 and a plain apology, without the SQL, its parameters or a stack trace",
    async (url) => {
      const response = await fetch(`${app.url}${url}`);
      const body = await response.text();
      expect(response.status).toBe(500);
      expect(body).not.toMatch(INTERNALS);
    },
  );

  it("keeps the details in the server's log for the operator", async () => {
    expect(await app.waitForLine("setup_tokens")).toContain('"level":50');
  });
});

describe("npm start", () => {
  let app: AppServer;
  let dataDir: string;
  beforeAll(async () => {
    // npm start rebuilds a stale build, which would pull build/ from under the other test files running now.
    const built = JSON.parse(await readFile(path.join(projectRoot, "build/build-info.json"), "utf8"));
    if (built.sources !== sourceFingerprint()) throw new Error("The build is older than the sources: npm run build");
    dataDir = await mkdtemp(path.join(tmpdir(), "tce-npm-start-"));
    app = await startAppServer({
      entry: "scripts/start.mjs",
      dataDir,
      env: { NODE_ENV: undefined, SESSION_SECRET: undefined, DATA_ENCRYPTION_KEY: undefined },
    });
  });
  afterAll(() => app?.stop());

  it("runs in production mode with no settings at all", async () => {
    const response = await fetch(`${app.url}/admin`);
    await response.body?.cancel();
    expect(response.status).toBe(200);
    // Sent only in production mode.
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(app.output.some((line) => line.includes('"mode":"production"'))).toBe(true);
  });

  it("keeps the local conveniences: a generated session secret and its own PostgreSQL in DATA_DIR", async () => {
    expect((await readFile(path.join(dataDir, "session-secret"), "utf8")).trim().length).toBeGreaterThanOrEqual(32);
    expect(app.output.some((line) => line.includes("embedded PostgreSQL"))).toBe(true);
  });
});

describe("npm run serve", () => {
  let database: TestDatabase;
  let app: AppServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    const scripts = JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")).scripts;
    // After the memory settings it starts with, which startAppServer gives every app it starts.
    const entry = /^sh scripts\/with-memory-settings\.sh node (\S+)$/.exec(scripts.serve)?.[1];
    if (!entry)
      throw new Error(`npm run serve is not "sh scripts/with-memory-settings.sh node <file>": ${scripts.serve}`);
    app = await startAppServer({ entry, env: { DATABASE_URL: database.url, NODE_ENV: undefined } });
  });
  afterAll(async () => {
    await app?.stop();
    await database.drop();
  });

  it("runs in production mode when NODE_ENV is not set, as npm start does", async () => {
    const response = await fetch(`${app.url}/admin`);
    await response.body?.cancel();
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(app.output.some((line) => line.includes('"mode":"production"'))).toBe(true);
  });
});
