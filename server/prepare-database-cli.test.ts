import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { runCommand } from "#tests/npm-run";
import { connectDatabase } from "../app/services/db/database.server";
import { clusterExists, startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { countPendingMigrations } from "../app/services/db/migrations.server";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "tce-prepare-database-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** What `npm start` runs beside its build, with only these settings: its exit code and what it printed. */
const prepareDatabase = (env: Record<string, string>) =>
  runCommand(process.execPath, ["--import", "tsx", "server/prepare-database-cli.ts"], { LOG_LEVEL: "info", ...env });

describe("the first start's database, prepared beside the build", () => {
  it("makes the embedded PostgreSQL's cluster, migrates it and stops it, so the server only starts it", async () => {
    const { code, stdout } = await prepareDatabase({ DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(stdout).toContain("prepared the embedded PostgreSQL beside the build");
    expect(clusterExists(dataDir)).toBe(true);
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);

    const embedded = await startEmbeddedPostgres({ dataDir, logger: pino({ level: "silent" }) });
    const database = connectDatabase(embedded.url, pino({ level: "silent" }));
    try {
      expect(await countPendingMigrations(database.db, path.join(projectRoot, "drizzle"))).toBe(0);
    } finally {
      await database.close();
      await embedded.stop();
    }
  });

  it("does nothing where a cluster is already made, or with DATABASE_URL set", async () => {
    const again = await prepareDatabase({ DATA_DIR: dataDir });
    expect(again).toMatchObject({ code: 0, stdout: "", stderr: "" });

    const elsewhere = path.join(dataDir, "another");
    const withUrl = await prepareDatabase({ DATA_DIR: elsewhere, DATABASE_URL: "postgres://someone@127.0.0.1:9/tce" });
    expect(withUrl).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(elsewhere)).toBe(false);
  });
});
