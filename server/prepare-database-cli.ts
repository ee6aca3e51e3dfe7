// Run by `npm start` beside a build (scripts/build-info.mjs): on the first start with the embedded PostgreSQL,
// makes its cluster and applies the migrations while the app builds, so the server, started once the build is
// done, finds its database ready. It does nothing with DATABASE_URL set or a cluster already in DATA_DIR. A
// failure here is left for the server's own start to report, with its context.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "../app/services/config.server";
import { connectDatabase } from "../app/services/db/database.server";
import { clusterExists, startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { applyMigrations } from "../app/services/db/migrations.server";
import { createLogger } from "../app/services/logger.server";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<void> {
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const config = loadConfig(process.env);
  if (config.DATABASE_URL || clusterExists(config.DATA_DIR)) return;
  const logger = createLogger(config.LOG_LEVEL);
  const embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, logger });
  try {
    const database = connectDatabase(embedded.url, logger);
    try {
      await applyMigrations(database.pool, path.join(rootDir, "drizzle"));
    } finally {
      await database.close();
    }
  } finally {
    await embedded.stop();
  }
  logger.info("prepared the embedded PostgreSQL beside the build");
  logger.flush();
}

try {
  await main();
} catch (error) {
  // A bad setting: the server's start names it, in its one line.
  if (error instanceof ConfigError) process.exit(0);
  console.error(`start: the embedded PostgreSQL was not prepared beside the build (${String(error)})`);
  process.exitCode = 1;
}
