import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Logger } from "pino";

import * as schema from "./schema.server";

/** Drizzle over a pool; `$client` is that pool, for work that needs a connection of its own. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export type DatabaseConnection = { db: Database; pool: pg.Pool; close: () => Promise<void> };

export function connectDatabase(url: string, logger: Logger): DatabaseConnection {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server (a restart, a network cut) must not crash the process.
  pool.on("error", (error) => logger.error({ err: error }, "idle database connection failed"));
  // Nor one that is checked out between two statements (inside a transaction) when the server goes: the pool
  // listens only to idle clients, and an 'error' event nobody listens to ends the process. The statement
  // that then finds the connection closed fails and is logged where it was made.
  pool.on("connect", (client) => {
    client.on("error", (error) => logger.debug({ err: error }, "database connection lost"));
  });
  return { db: drizzle(pool, { schema, casing: "snake_case" }), pool, close: () => pool.end() };
}
