import { Placeholder, type SQL, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Logger } from "pino";
import * as schema from "./schema.server";

/** Drizzle over a pool; `$client` is that pool, for work that needs a connection of its own. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** Drizzle over one connection of its own: the one a transaction runs on, or the delivery worker's lease session. */
export type Transaction = NodePgDatabase<typeof schema> & { $client: pg.PoolClient };

export type DatabaseConnection = { db: Database; pool: pg.Pool; close: () => Promise<void> };

/** Drizzle with the app's schema and column naming, over one connection (a transaction's, the lease session's). */
export function drizzleOver(client: pg.PoolClient): Transaction {
  return drizzle(client, { schema, casing: "snake_case" });
}

/** The application_name of the app's connections, by which `npm run restore` sees an app running on its target. */
export const APP_CONNECTION_NAME = "tri-county-electric";

/** `applicationName` is for connections that are not the app's (a test's), which restore must not take for one. */
export function connectDatabase(
  url: string,
  logger: Logger,
  applicationName = APP_CONNECTION_NAME,
): DatabaseConnection {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    application_name: applicationName,
  });
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

/**
 * Runs `work` in a transaction on a connection of its own, committed when it resolves and rolled back when it
 * throws. Used instead of Drizzle's `db.transaction`, which keeps the connection checked out for good when
 * BEGIN fails and gives it back to the pool when ROLLBACK fails: a pooled connection whose server went away
 * (an outage, a restart) did the one or the other, and each such post took one of the pool's ten for the life
 * of the process. Here a connection that failed is closed rather than pooled again.
 */
export async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(drizzleOver(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackFailure: unknown) => {
      broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

const dialect = new PgDialect({ casing: "snake_case" });
const statementNames = new Map<string, string>();

/** The name a statement's text is prepared under, on every connection: one per distinct text. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `app_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

async function queryPrepared<Row extends pg.QueryResultRow>(
  executor: Database | Transaction,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  return (await executor.$client.query<Row>({ name, text, values })).rows;
}

/**
 * Runs a statement the app sends at volume (the delivery worker's claim, its records) as a named prepared
 * statement: PostgreSQL parses and plans it once per connection instead of on every call, which was about 40%
 * of PostgreSQL's work for a post. Each distinct text gets its own name, so the statement must carry its values
 * as parameters, never in its text. Rows come as pg reads them (a bigint as a string, a timestamp as a Date),
 * not through Drizzle's column mapping.
 */
export async function executePrepared<Row extends pg.QueryResultRow>(
  executor: Database | Transaction,
  query: SQL,
): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return queryPrepared<Row>(executor, statementName(text), text, params);
}

/** A statement written once with named values (statement()), run with runStatement(). */
export type Statement<Values> = { name: string; text: string; valueNames: (keyof Values)[] };

/**
 * A statement for the hottest path, a public post's insert: Drizzle renders it once, at start, with a named
 * placeholder for each value, rather than on every call (its rendering was 4% of the app's CPU under a flood of
 * posts). Prepared per connection like executePrepared's.
 */
export function statement<Values>(
  write: (value: (name: keyof Values & string) => Placeholder) => SQL,
): Statement<Values> {
  const { sql: text, params } = dialect.sqlToQuery(write((name) => sql.placeholder(name)));
  const valueNames = params.map((param) => {
    if (!(param instanceof Placeholder)) throw new Error(`every value of a statement is named: ${text}`);
    return param.name as keyof Values;
  });
  return { name: statementName(text), text, valueNames };
}

export async function runStatement<Row extends pg.QueryResultRow, Values>(
  executor: Database | Transaction,
  statement: Statement<Values>,
  values: Values,
): Promise<Row[]> {
  const { name, text, valueNames } = statement;
  return queryPrepared<Row>(
    executor,
    name,
    text,
    valueNames.map((key) => values[key]),
  );
}
