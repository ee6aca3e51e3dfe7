import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";

const run = promisify(execFile);
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "tce-database-url-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** `npm run --silent database-url` with only these settings: its exit code, what it printed and what it said. */
function databaseUrlCommand(env: Record<string, string>) {
  return run("npm", ["run", "--silent", "database-url"], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("npm run database-url", () => {
  it("prints a DATABASE_URL of the running embedded PostgreSQL that connects as the app's role", async () => {
    const embedded = await startEmbeddedPostgres({ dataDir, logger: pino({ level: "silent" }) });
    try {
      const { code, stdout } = await databaseUrlCommand({ DATA_DIR: dataDir });
      expect(code).toBe(0);
      const client = new pg.Client({ connectionString: stdout.trim() });
      await client.connect();
      const { rows } = await client.query("SELECT current_user AS role, current_database() AS database");
      await client.end();
      expect(rows[0]).toEqual({ role: "tce_app", database: "app" });
    } finally {
      await embedded.stop();
    }
  });

  it("says to start the app when no embedded PostgreSQL runs in DATA_DIR, and prints no URL", async () => {
    const { code, stdout, stderr } = await databaseUrlCommand({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`No embedded PostgreSQL runs in ${dataDir}: start the app (npm start)`);
  });

  it("prints DATABASE_URL when it is set", async () => {
    const given = "postgres://someone:secret@db.example.com:5432/tce";
    const { code, stdout } = await databaseUrlCommand({ DATA_DIR: dataDir, DATABASE_URL: given });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(given);
  });
});
