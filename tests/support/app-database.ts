import pino from "pino";
import { connectDatabase, type Database } from "../../app/services/db/database.server";
import { openEmbeddedPostgres } from "../../app/services/db/embedded-postgres.server";

/**
 * Runs `work` against the running app's embedded PostgreSQL (found in its data directory) with the app's own
 * database code, for browser tests that set up what the screens then show.
 */
export async function withAppDatabase<T>(dataDir: string, work: (db: Database) => Promise<T>): Promise<T> {
  const logger = pino({ level: "silent" });
  const embedded = await openEmbeddedPostgres({ dataDir, logger });
  const connection = connectDatabase(embedded.url, logger);
  try {
    return await work(connection.db);
  } finally {
    await connection.close();
    await embedded.stop();
  }
}
