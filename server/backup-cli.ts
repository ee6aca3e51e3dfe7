// `npm run backup` and `npm run restore -- FILE [--force]`: run from the sources (tsx), never from build/, so an
// operator can run them beside a live server without rebuilding it (DESIGN: admin commands are harmless on a
// live server). They use the app's database: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  BackupFileError,
  type BackupManifest,
  RestoreRefusal,
  restoreBackup,
  verifyBackup,
  writeBackup,
} from "../app/server/backup/backup-file.server";
import { ConfigError, loadConfig } from "../app/server/config.server";
import { connectDatabase } from "../app/server/db/database.server";
import { openEmbeddedPostgres, startEmbeddedPostgres } from "../app/server/db/embedded-postgres.server";
import { createLogger } from "../app/server/logger.server";
import { StartRefusal } from "../app/server/start-refusal.server";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `Usage: npm run backup
       npm run restore -- <file> [--force]

backup   writes a consistent backup of the whole database (files included) into BACKUP_DIR (DATA_DIR/backups)
restore  checks <file>, then restores it into the database of DATA_DIR (or DATABASE_URL); --force replaces a
         database that holds data. It refuses while an app runs on that database.`;

class UsageError extends Error {}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function summaryOf(manifest: BackupManifest): string {
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  return `taken ${manifest.createdAt}, ${rows} rows in ${manifest.tables.length} tables`;
}

async function backup(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
  const embedded = config.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir: config.DATA_DIR, logger });
  const database = connectDatabase(config.DATABASE_URL ?? embedded?.url ?? "", logger);
  try {
    const started = Date.now();
    const written = await writeBackup(database.pool, path.resolve(config.BACKUP_DIR));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${written.file} (${formatBytes(written.bytes)}, ${summaryOf(written.manifest)}, ${seconds} s)`);
    console.log(`sha256 ${written.sha256}`);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

async function restore(file: string, force: boolean): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
  // The file is checked before any database is touched: a bad one leaves the target as it was.
  await verifyBackup(file);
  // With the embedded server, holding DATA_DIR's lock is what says no app runs on it.
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, logger }).catch((error: unknown) => {
        throw error instanceof StartRefusal ? new RestoreRefusal(error.message) : error;
      });
  const client = new pg.Client({
    connectionString: config.DATABASE_URL ?? embedded?.url,
    application_name: "tri-county-electric restore",
  });
  try {
    await client.connect();
    const started = Date.now();
    const manifest = await restoreBackup(client, file, { force, migrationsFolder: path.join(rootDir, "drizzle") });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Restored ${file} (${summaryOf(manifest)}) in ${seconds} s`);
  } finally {
    await client.end().catch(() => {});
    await embedded?.stop();
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { force: { type: "boolean", default: false }, help: { type: "boolean" } },
  });
  const [command, file, ...extra] = positionals;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  if (command === "backup" && !file) {
    await backup();
    return 0;
  }
  if (command === "restore" && file && extra.length === 0) {
    await restore(path.resolve(file), values.force);
    return 0;
  }
  throw new UsageError(USAGE);
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof BackupFileError || error instanceof RestoreRefusal) {
    console.error(`Refused: ${error.message}`);
    process.exitCode = 1;
  } else if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
