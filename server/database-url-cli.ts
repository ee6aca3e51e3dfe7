// `npm run --silent database-url`: prints the app's database connection, for the scripts that take a
// DATABASE_URL (scripts/seed-inbox.ts) and for psql: DATABASE_URL when it is set, otherwise the embedded
// PostgreSQL's in DATA_DIR, as the app's own role, while the app (or another tool) runs it.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "../app/services/config.server";
import { runningEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const config = loadConfig(process.env);
  const url = config.DATABASE_URL ?? (await runningEmbeddedPostgres(config.DATA_DIR))?.url;
  if (!url) {
    console.error(
      `No embedded PostgreSQL runs in ${path.resolve(config.DATA_DIR)}: start the app (npm start) and run this again`,
    );
    return 1;
  }
  process.stdout.write(`${url}\n`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
