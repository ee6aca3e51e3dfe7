import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import type { TestProject } from "vitest/node";
import { connectDatabase } from "../../app/services/db/database.server";
import { startEmbeddedPostgres } from "../../app/services/db/embedded-postgres.server";
import { applyMigrations } from "../../app/services/db/migrations.server";
import { makeTestRunDirectory, removeTestRunDirectory } from "./test-run-directory";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL server for the whole run: the one DATABASE_URL names, or an embedded one in a temporary
 * directory. A template database is migrated once; each test file clones it (tests/support/test-database.ts).
 */
export default async function setup(project: TestProject) {
  makeTestRunDirectory();
  const logger = pino({ level: "warn" });
  let serverUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!serverUrl) {
    dataDir = await mkdtemp(path.join(tmpdir(), "tce-test-pg-"));
    const embedded = await startEmbeddedPostgres({ dataDir, logger });
    // Making and dropping a database per test file takes the superuser; the app's role may not.
    serverUrl = embedded.superuserUrl;
    stopEmbedded = embedded.stop;
  }

  const templateDatabase = `test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase}`);
  await admin.query(`CREATE DATABASE ${templateDatabase}`);
  const template = connectDatabase(databaseUrlFor(serverUrl, templateDatabase), logger);
  await applyMigrations(template.pool, path.resolve("drizzle"));
  await template.close();

  project.provide("databaseServerUrl", serverUrl);
  project.provide("templateDatabase", templateDatabase);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
    await admin.end();
    await stopEmbedded?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    removeTestRunDirectory();
  };
}

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
