import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";
import type { Database } from "./database.server";

/** Any fixed number: it names the lock that keeps two instances from migrating at once. */
const MIGRATION_LOCK_ID = 7_240_311;

export async function applyMigrations(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  // A session-level advisory lock belongs to one connection, so lock, migrate and unlock on the same one.
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}

/** How many checked-in migrations the database has not applied yet. */
export async function countPendingMigrations(db: Database, migrationsFolder: string): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const table = await db.execute<{ exists: boolean }>(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`,
  );
  if (!table.rows[0]?.exists) return migrations.length;
  const applied = await db.execute<{ created_at: string }>(
    sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
  );
  const lastApplied = Number(applied.rows[0]?.created_at ?? 0);
  return migrations.filter((migration) => migration.folderMillis > lastApplied).length;
}
