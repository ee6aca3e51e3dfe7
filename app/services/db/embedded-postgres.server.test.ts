import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { startEmbeddedPostgres } from "./embedded-postgres.server";
import { applyMigrations } from "./migrations.server";

const logger = pino({ level: "silent" });
const migrationsFolder = path.join(projectRoot, "drizzle");
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "tce-embedded-role-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The superuser's connection to the app's database, as every data folder had the app use before. */
async function superuserUrl(appUrl: string): Promise<string> {
  const password = (await readFile(path.join(dataDir, "postgres-password"), "utf8")).trim();
  const url = new URL(appUrl);
  url.username = "postgres";
  url.password = encodeURIComponent(password);
  return url.href;
}

/** Who owns the app's database, its schemas and every table and sequence in them. */
const OWNERS = `
  SELECT 'database' AS kind, pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database()
  UNION SELECT 'schema ' || nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname IN ('public', 'drizzle')
  UNION SELECT 'relation ' || c.relname, pg_get_userbyid(c.relowner) FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'drizzle') AND c.relkind IN ('r', 'S')`;

describe("the embedded PostgreSQL", () => {
  it("has the app connect as a role that owns its tables, not as the superuser, on a new data folder and on an older one", async () => {
    const first = await startEmbeddedPostgres({ dataDir, logger });
    let oldUrl: string;
    try {
      const role = await withClient(first.url, async (client) => {
        const pool = new pg.Pool({ connectionString: first.url, max: 1 });
        await applyMigrations(pool, migrationsFolder).finally(() => pool.end());
        return (
          await client.query(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, current_user AS name FROM pg_roles WHERE rolname = current_user",
          )
        ).rows[0];
      });
      expect(role).toMatchObject({ rolsuper: false, rolcreaterole: false, rolcreatedb: false });
      expect(role.name).not.toBe("postgres");
      expect((await stat(path.join(dataDir, "postgres-app-password"))).mode & 0o777).toBe(0o600);

      // A data folder from before: everything made and migrated by the superuser.
      oldUrl = await superuserUrl(first.url);
      await withClient(oldUrl, async (client) => {
        await client.query("DROP SCHEMA drizzle CASCADE");
        await client.query("DROP SCHEMA public CASCADE");
        await client.query("CREATE SCHEMA public AUTHORIZATION pg_database_owner");
        await client.query("ALTER DATABASE app OWNER TO postgres");
      });
      const pool = new pg.Pool({ connectionString: oldUrl, max: 1 });
      await applyMigrations(pool, migrationsFolder).finally(() => pool.end());
      const before = await withClient(oldUrl, async (client) => (await client.query(OWNERS)).rows);
      expect(before.filter((row) => row.owner === "postgres").length).toBeGreaterThan(10);
    } finally {
      await first.stop();
    }

    const again = await startEmbeddedPostgres({ dataDir, logger });
    try {
      const owners = await withClient(oldUrl, async (client) => (await client.query(OWNERS)).rows);
      const appRole = new URL(again.url).username;
      expect(owners.filter((row) => row.owner !== appRole)).toEqual([]);
      await withClient(again.url, async (client) => {
        expect((await client.query("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).rows).toEqual([
          { rolsuper: false },
        ]);
        await client.query(
          "INSERT INTO staff_users (username, display_name, password_hash, role) VALUES ('after-upgrade', 'After', 'x', 'staff')",
        );
        // What a restore does first, with the extensions the superuser made in the schema.
        await client.query("BEGIN");
        await client.query("DROP SCHEMA public CASCADE");
        await client.query("ROLLBACK");
      });
      const pool = new pg.Pool({ connectionString: again.url, max: 1 });
      await applyMigrations(pool, migrationsFolder).finally(() => pool.end());
    } finally {
      await again.stop();
    }
  });
});
