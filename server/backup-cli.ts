// `npm run backup` and `npm run restore -- FILE [--force]`: run from the sources (tsx), never from build/, so an
// operator can run them beside a live server without rebuilding it (DESIGN: admin commands are harmless on a
// live server). They use the app's database: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { checkCopyDestination, describeDestination } from "../app/services/backup/backup-copy.server";
import { readBackupKey, resolveBackupEncryptionKey } from "../app/services/backup/backup-encryption.server";
import {
  BackupFileError,
  type BackupManifest,
  type BackupOpening,
  type OpenedBackup,
  openBackup,
  RestoreRefusal,
  restoreBackup,
  verifyBackup,
} from "../app/services/backup/backup-file.server";
import { ForeignBackupFolder, settleBackupDir } from "../app/services/backup/backup-folder-mark.server";
import { takeBackupByHand } from "../app/services/backup/backup-schedule.server";
import { type Config, ConfigError, loadConfig } from "../app/services/config.server";
import { connectDatabase } from "../app/services/db/database.server";
import { openEmbeddedPostgres, startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { createLogger } from "../app/services/logger.server";
import { StartRefusal } from "../app/services/start-refusal.server";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `Usage: npm run backup
       npm run backup -- --check <file> [--plain]
       npm run restore -- <file> [--force] [--plain]

backup   writes a consistent backup of the whole database (files included) into BACKUP_DIR (<DATA_DIR>-backups
         beside DATA_DIR), sealed with BACKUP_ENCRYPTION_KEY, then copies the backups not copied yet to BACKUP_COPY_TO
--check  only checks <file> (its seal, format, checksum, every table readable): prints OK, or what is wrong and
         exits 1
restore  checks <file> whole, then restores it into the database of DATA_DIR (or DATABASE_URL); --force replaces a
         database that holds data. It refuses while an app runs on that database.
--plain  also takes a backup that is not sealed: one written before backups were encrypted.`;

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
  const { config } = await settleBackupDir(loadConfig(process.env), process.env);
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
  const key = await resolveBackupEncryptionKey(config);
  if (key.madeIn)
    console.error(`Made a new BACKUP_ENCRYPTION_KEY in ${key.madeIn}: keep a copy apart from the backups`);
  const embedded = config.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir: config.DATA_DIR, logger });
  const database = connectDatabase(config.DATABASE_URL ?? embedded?.url ?? "", logger);
  try {
    if (config.BACKUP_COPY_TO) await checkCopyDestination(config.BACKUP_COPY_TO);
    const started = Date.now();
    const { written, sweptPartials, copy } = await takeBackupByHand(database.db, {
      ...config,
      BACKUP_DIR: path.resolve(config.BACKUP_DIR),
      BACKUP_ENCRYPTION_KEY: key.key,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${written.file} (${formatBytes(written.bytes)}, ${summaryOf(written.manifest)}, ${seconds} s)`);
    console.log(`sha256 ${written.sha256}`);
    if (sweptPartials.length > 0) console.log(`Deleted what a stopped backup left: ${sweptPartials.join(", ")}`);
    if (!copy || !config.BACKUP_COPY_TO) return;
    const copyTo = describeDestination(config.BACKUP_COPY_TO);
    if (copy.copied.length > 0) console.log(`Copied to ${copyTo} and read back whole: ${copy.copied.join(", ")}`);
    // The backup itself is made: a failed copy is said, and tried again by the next backup, scheduled or by hand.
    for (const failure of copy.failed) console.error(`Not copied to ${copyTo}: ${failure.file}: ${failure.reason}`);
    if (copy.retentionFailure) console.error(`Old copies at ${copyTo} not deleted: ${copy.retentionFailure}`);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

/** The key a check or a restore opens a backup with: BACKUP_ENCRYPTION_KEY, else DATA_DIR's; never a new one. */
async function openingOf(allowPlain: boolean): Promise<BackupOpening> {
  return { key: await readBackupKey(loadConfig(process.env)), allowPlain };
}

const plainWarning = (file: string) =>
  `Warning: ${file} is not sealed (a backup from before backups were encrypted): nothing proves who wrote it`;

/** `--check`: the file alone, without any database. Resolves with the exit status. */
async function check(file: string, allowPlain: boolean): Promise<number> {
  try {
    const opened = await verifyBackup(file, await openingOf(allowPlain));
    if (!opened.sealed) console.error(plainWarning(file));
    console.log(`OK: ${file} (${summaryOf(opened.manifest)})`);
    return 0;
  } catch (error) {
    if (!(error instanceof BackupFileError)) throw error;
    console.error(`Not OK: ${error.message}`);
    return 1;
  }
}

async function restore(file: string, force: boolean, allowPlain: boolean): Promise<void> {
  const config = loadConfig(process.env);
  // The file is opened and checked whole before any database is touched: a bad one leaves the target as it was.
  await openBackup(file, await openingOf(allowPlain), async (opened) => {
    if (!opened.sealed) console.error(plainWarning(file));
    await restoreOpened(config, file, opened, force);
  });
}

async function restoreOpened(config: Config, file: string, opened: OpenedBackup, force: boolean): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
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
    const manifest = await restoreBackup(client, file, opened, {
      force,
      migrationsFolder: path.join(rootDir, "drizzle"),
    });
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
    options: {
      force: { type: "boolean", default: false },
      plain: { type: "boolean", default: false },
      check: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const [command, file, ...extra] = positionals;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  if (command === "backup" && values.check !== undefined && !file) {
    return check(path.resolve(values.check), values.plain);
  }
  if (command === "backup" && !file) {
    await backup();
    return 0;
  }
  if (command === "restore" && file && extra.length === 0) {
    await restore(path.resolve(file), values.force, values.plain);
    return 0;
  }
  throw new UsageError(USAGE);
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof BackupFileError || error instanceof RestoreRefusal || error instanceof ForeignBackupFolder) {
    console.error(`Refused: ${error.message}`);
    process.exitCode = 1;
  } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof StartRefusal) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
