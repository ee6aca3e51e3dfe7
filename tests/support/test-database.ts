import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { inject } from "vitest";
import { connectDatabase, type DatabaseConnection } from "../../app/services/db/database.server";
import { databaseUrlFor } from "./database.global-setup";

export type TestDatabase = DatabaseConnection & {
  url: string;
  name: string;
  /** Refuses (and cuts) or allows again every connection to this database, as if its server went away. */
  setReachable: (reachable: boolean) => Promise<void>;
  drop: () => Promise<void>;
};

/** A fresh database cloned from the migrated template: every test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject("databaseServerUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject("templateDatabase")}`));
  const url = databaseUrlFor(serverUrl, name);
  const connection = connectDatabase(url, pino({ level: "silent" }), "tri-county-electric tests");
  return {
    ...connection,
    url,
    name,
    setReachable: (reachable) =>
      withAdmin(serverUrl, async (admin) => {
        await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS ${reachable}`);
        if (!reachable) {
          await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
        }
      }),
    drop: async () => {
      await connection.close();
      await withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
