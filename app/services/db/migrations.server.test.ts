import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { connectDatabase } from "./database.server";
import { applyMigrations, countPendingMigrations } from "./migrations.server";

const PROBE_WHEN = 4_000_000_000_000;

/** A migrations folder in drizzle-kit's layout, holding one migration (dated after every real one) that creates a table. */
async function writeMigrationsFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "tce-migrations-"));
  await mkdir(path.join(folder, "meta"));
  const entry = { idx: 0, version: "7", when: PROBE_WHEN, tag: "0000_probe", breakpoints: true };
  await writeFile(
    path.join(folder, "meta/_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries: [entry] }),
  );
  await writeFile(path.join(folder, "0000_probe.sql"), "CREATE TABLE probe (id integer PRIMARY KEY);");
  return folder;
}

describe("migrations", () => {
  let database: TestDatabase;
  let folder: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    folder = await writeMigrationsFolder();
  });
  afterAll(() => database.drop());

  it("reports the checked-in migrations as applied in the template every test database is cloned from", async () => {
    expect(await countPendingMigrations(database.db, path.resolve("drizzle"))).toBe(0);
  });

  it("counts a migration as pending until it is applied, then applies it once", async () => {
    expect(await countPendingMigrations(database.db, folder)).toBe(1);
    await applyMigrations(database.pool, folder);
    expect(await countPendingMigrations(database.db, folder)).toBe(0);
    await applyMigrations(database.pool, folder);
    const tables = await database.pool.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'probe'");
    expect(tables.rows[0].n).toBe(1);
  });

  it("lets two instances start at once: one migrates, the other waits and finds nothing to do", async () => {
    const fresh = await createTestDatabase();
    const second = connectDatabase(fresh.url, pino({ level: "silent" }));
    try {
      await Promise.all([applyMigrations(fresh.pool, folder), applyMigrations(second.pool, folder)]);
      const applied = await fresh.pool.query(
        "SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations WHERE created_at = $1",
        [PROBE_WHEN],
      );
      expect(applied.rows[0].n).toBe(1);
    } finally {
      await second.close();
      await fresh.drop();
    }
  });
});
