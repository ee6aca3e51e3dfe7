import { readFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { company } from "../app/content/company";
import { runAlertTexts } from "../app/features/inbox/alert-texts.server";
import { runRetention } from "../app/features/inbox/retention.server";
import { webhookTargets } from "../app/features/submission-types.server";
import { deleteAbandonedPostedFiles } from "../app/forms/read-form-body.server";
import { deleteAbandonedUploads } from "../app/forms/resumable-uploads.server";
import { createEmailSender } from "../app/outbox/email-sender.server";
import { createSmsSender, type SmsSender } from "../app/outbox/sms-sender.server";
import { sendDueStaffNotices } from "../app/outbox/staff-notices.server";
import { deleteAbandonedStagedFiles } from "../app/outbox/staged-files.server";
import { logUnsetTargets } from "../app/outbox/targets.server";
import { createDeliveryWorker } from "../app/outbox/worker.server";
import { resolveDataEncryptionKey } from "../app/services/auth/data-encryption.server";
import { sealPlainTotpSecrets, usersWithUnreadableTotpSecrets } from "../app/services/auth/second-factor.server";
import { resolveSessionSecret } from "../app/services/auth/session-secret.server";
import { announceFirstAdminSetup } from "../app/services/auth/setup-link.server";
import { resolveBackupEncryptionKey } from "../app/services/backup/backup-encryption.server";
import {
  claimBackupFolders,
  clusterSystemIdentifier,
  databaseSystemIdentifier,
  ForeignBackupFolder,
  settleBackupDir,
} from "../app/services/backup/backup-folder-mark.server";
import { announceBackupPlaces, createBackupJob } from "../app/services/backup/backup-schedule.server";
import { type Config, ConfigError, loadConfig } from "../app/services/config.server";
import { assertPortFree } from "../app/services/data-dir-lock.server";
import { connectDatabase, type Database, type DatabaseConnection } from "../app/services/db/database.server";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { applyMigrations } from "../app/services/db/migrations.server";
import { createLogger, redactedError } from "../app/services/logger.server";
import { type JobServices, periodicJob } from "../app/services/periodic-job.server";
import { createArchiveCopyJob } from "../app/services/point-in-time/archive-copy.server";
import { walArchiveDirectory } from "../app/services/point-in-time/base-backup.server";
import { createBaseBackupJob } from "../app/services/point-in-time/base-backup-job.server";
import { followPublishedSiteContent } from "../app/services/site-content/site-content-cache.server";
import { deleteUnusedSitePhotos } from "../app/services/site-photos/site-photo-store.server";
import { StartRefusal } from "../app/services/start-refusal.server";
import { resolveVapidKeys } from "../app/services/vapid-keys.server";
import { type AppDependencies, createApp } from "./app";
import { closeServer, type Lifecycle, listen, stopOnSignals } from "./lifecycle";
import type { SitePagePublisher } from "./site-pages";

/** This file is bundled to build/server-entry/index.js, two levels below the project root. */
const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const migrationsFolder = path.join(rootDir, "drizzle");
const buildDir = path.join(rootDir, "build");

type Startup = Lifecycle & { config: Config; logger: Logger };

/**
 * Starts the app one step after the other; each registers how to stop what it started, and shutdown stops them in
 * the reverse order (lifecycle.ts). The HTTP port is checked before the database is touched, and the HTTP server
 * listens last, once everything its answers need is up.
 */
async function main(): Promise<void> {
  // scripts/with-memory-settings.sh preloads jemalloc for this process only: PostgreSQL, backups and any other
  // program the app starts keep their own allocator.
  if (process.env.LD_PRELOAD?.includes("libjemalloc")) delete process.env.LD_PRELOAD;
  const { config, logger } = await loadSettings();
  const startup: Startup = { config, logger, ...stopOnSignals(logger) };
  try {
    await assertPortFree(config.PORT, config.HOST);
    await announceBackupPlaces(config, logger);
    const databaseServer = await startDatabaseServer(startup);
    const database = await openDatabase(databaseServer.url, startup);
    await announceFirstAdminSetup(database.db, config.SITE_URL, logger);
    logUnsetTargets(config, logger, webhookTargets);
    const { deliveryWorker, smsSender } = startDeliveryWorker(database.db, startup);
    startJobs({ db: database.db, config, logger, wakeDeliveryWorker: deliveryWorker.wake }, smsSender, startup);
    const app = await loadBuiltApp({ database, deliveryWorker, isDatabaseProcessUp: databaseServer.isUp }, startup);
    await servePublishedSite(database.db, app.sitePages, startup);
    await serveHttp(app, startup);
  } catch (error) {
    if (error instanceof StartRefusal) {
      logger.flush();
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.fatal({ err: error }, error instanceof Error ? redactedError(error).message : "start failed");
    }
    await startup.shutdown("start failure", 1);
  }
}

/** A bad setting stops the start with one line naming it. */
async function loadSettings(): Promise<{ config: Config; logger: Logger }> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const settled = await settleBackupDir(config, process.env);
  if (settled.formerDefault) {
    logger.info(
      { backupDir: settled.config.BACKUP_DIR },
      `BACKUP_DIR is unset and ${settled.config.BACKUP_DIR}, the former default, holds this database's backups: they stay there (the default is now ${config.BACKUP_DIR}); set BACKUP_DIR to keep them there for good`,
    );
    config = settled.config;
  }
  const sessionSecret = await resolveSessionSecret(config);
  const dataEncryptionKey = await resolveDataEncryptionKey(config);
  const backupEncryptionKey = await resolveBackupEncryptionKey(config);
  const vapidKeys = await resolveVapidKeys(config);
  if (dataEncryptionKey.madeIn) {
    logger.warn(
      { file: dataEncryptionKey.madeIn },
      `made a new DATA_ENCRYPTION_KEY in ${dataEncryptionKey.madeIn}: keep a copy apart from the backups, since the second factors stored with it need it`,
    );
  }
  if (backupEncryptionKey.madeIn) {
    logger.warn(
      { file: backupEncryptionKey.madeIn },
      `made a new BACKUP_ENCRYPTION_KEY in ${backupEncryptionKey.madeIn}: keep a copy apart from the backups, since no backup opens without it`,
    );
  }
  return {
    logger,
    config: {
      ...config,
      SESSION_SECRET: sessionSecret,
      DATA_ENCRYPTION_KEY: dataEncryptionKey.key,
      BACKUP_ENCRYPTION_KEY: backupEncryptionKey.key,
      VAPID_PUBLIC_KEY: vapidKeys.publicKey,
      VAPID_PRIVATE_KEY: vapidKeys.privateKey,
    },
  };
}

/**
 * BACKUP_DIR and BACKUP_COPY_TO hold this database's backups, or are marked so now; another database's mark
 * refuses the start in one line (backup-folder-mark.server.ts).
 */
async function claimBackupFoldersAtStart({ config, logger }: Startup, systemIdentifier: string): Promise<void> {
  const said = await claimBackupFolders(config, systemIdentifier).catch((error: unknown) => {
    throw error instanceof ForeignBackupFolder ? new StartRefusal(error.message) : error;
  });
  for (const line of said) logger.warn({ systemIdentifier }, line);
}

async function startDatabaseServer(startup: Startup) {
  const { config, logger, onStop, shutdown } = startup;
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, isUp: () => true };
  const archiving = config.WAL_ARCHIVE === "on";
  let systemIdentifier = "";
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    logger,
    // Checked before the server starts: a cluster archives nothing into another database's folder.
    walArchiving: async (clusterDir) => {
      systemIdentifier = (await clusterSystemIdentifier(clusterDir)) ?? "";
      if (!systemIdentifier) throw new Error(`${clusterDir} holds no pg_control`);
      await claimBackupFoldersAtStart(startup, systemIdentifier);
      return archiving ? { directory: walArchiveDirectory(config) } : "off";
    },
    // A supervisor (systemd, the cluster script) restarts the whole app; a half-alive one helps nobody.
    onLost: (error) => {
      logger.fatal({ err: error }, error.message);
      void shutdown("embedded PostgreSQL lost", 1);
    },
  });
  onStop("embedded PostgreSQL", embedded.stop);
  if (archiving) {
    const job = createBaseBackupJob({ superuserUrl: embedded.superuserUrl, config, logger });
    job.start();
    onStop("base backup job", job.stop);
    const copyTo = config.BACKUP_COPY_TO;
    if (copyTo) {
      const copy = createArchiveCopyJob({
        config: { ...config, BACKUP_COPY_TO: copyTo },
        systemIdentifier,
        logger,
      });
      copy.start();
      onStop("WAL archive copy", copy.stop);
    }
  }
  return embedded;
}

async function openDatabase(url: string, startup: Startup): Promise<DatabaseConnection> {
  const { config, logger, onStop } = startup;
  const database = connectDatabase(url, logger);
  onStop("database pool", database.close);
  if (config.DATABASE_URL) await claimBackupFoldersAtStart(startup, await databaseSystemIdentifier(database.pool));
  await applyMigrations(database.pool, migrationsFolder);
  const sealed = await sealPlainTotpSecrets(database.db, config.DATA_ENCRYPTION_KEY);
  if (sealed > 0) logger.info({ users: sealed }, "encrypted the second-factor secrets stored before encryption");
  await warnOfUnreadableSecondFactors(database.db, config.DATA_ENCRYPTION_KEY, logger);
  return database;
}

/**
 * A backup restored without its DATA_ENCRYPTION_KEY leaves second factors no one can check: the start names
 * whose, and how an admin lets them in again.
 */
async function warnOfUnreadableSecondFactors(db: Database, key: string | undefined, logger: Logger) {
  const users = await usersWithUnreadableTotpSecrets(db, key);
  if (users.length === 0) return;
  const accounts = `${users.length} staff account${users.length === 1 ? "" : "s"}`;
  logger.warn(
    { users },
    `DATA_ENCRYPTION_KEY cannot read the second-factor secrets of ${accounts} (${users.join(", ")}): they cannot finish signing in until an admin removes their two-step verification at /admin/staff, or runs npm run user -- reset-two-factor NAME`,
  );
}

/** How often stored staff notices are looked for: a lock's notice arrives within this time. */
const STAFF_NOTICE_EVERY_MS = 10_000;

function startDeliveryWorker(db: Database, { config, logger, onStop }: Startup) {
  const emailSender = config.SMTP_URL
    ? createEmailSender(config.SMTP_URL, config.MAIL_FROM ?? `${company.name} <no-reply@localhost>`)
    : undefined;
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = config;
  const smsSender =
    accountSid && authToken && from
      ? createSmsSender({ accountSid, authToken, from, apiUrl: config.TWILIO_API_URL }, logger)
      : undefined;
  const deliveryWorker = createDeliveryWorker({ db, config, logger, emailSender, smsSender });
  deliveryWorker.start();
  // Emails to staff about their own accounts (a second factor locked), stored by the request that locked it.
  const staffNoticeJob =
    emailSender &&
    periodicJob(
      "staff notice",
      STAFF_NOTICE_EVERY_MS,
      async () => {
        await sendDueStaffNotices(db, emailSender);
      },
      logger,
    );
  staffNoticeJob?.start();
  onStop("delivery worker", async () => {
    await Promise.all([deliveryWorker.stop(), staffNoticeJob?.stop()]);
    emailSender?.close();
  });
  return { deliveryWorker, smsSender };
}

function startJobs(services: JobServices, smsSender: SmsSender | undefined, { onStop }: Startup) {
  const { db, config, logger } = services;
  const alertSmsTo = config.ALERT_SMS_TO;
  const sendAlertText =
    smsSender && alertSmsTo ? async (text: string) => (await smsSender.send(alertSmsTo, { text })).ok : undefined;
  const backupJob = createBackupJob({ db, config, logger, sendAlertText });
  backupJob.start();
  onStop("backup job", backupJob.stop);
  const inboxJobs = [
    { name: "retention", everyMs: 3_600_000, run: runRetention },
    // Photos that went up or were staged for a form never stored are gone within a day.
    { name: "abandoned uploads", everyMs: 3_600_000, run: deleteAbandonedFiles },
    // Each dashboard alert is texted to the on-call mobile, through Twilio.
    ...(config.ALERT_SMS_TO && config.TWILIO_ACCOUNT_SID
      ? [{ name: "alert text", everyMs: 60_000, run: runAlertTexts }]
      : []),
  ];
  for (const { name, everyMs, run } of inboxJobs) {
    const job = periodicJob(name, everyMs, () => run(services), logger);
    job.start();
    onStop(`${name} job`, job.stop);
  }
}

async function deleteAbandonedFiles({ db }: JobServices): Promise<void> {
  await deleteAbandonedUploads(db);
  await deleteAbandonedStagedFiles(db);
  await deleteAbandonedPostedFiles();
  await deleteUnusedSitePhotos(db);
}

/**
 * The published site content, before the first visitor: its static pages made if this instance has not yet, and
 * then again at each publish, which every instance hears of.
 */
async function servePublishedSite(db: Database, sitePages: SitePagePublisher, { logger, onStop }: Startup) {
  const following = await followPublishedSiteContent(db, logger, sitePages.serve);
  onStop("site content", following.stop);
}

async function loadBuiltApp(
  running: Pick<AppDependencies, "database" | "deliveryWorker" | "isDatabaseProcessUp">,
  { config, logger }: Startup,
): Promise<ReturnType<typeof createApp>> {
  warnOfStalePrerenderedPages(config.SITE_URL, logger);
  const serverBuild: ServerBuild = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  return createApp({ ...running, config, logger, buildDir, migrationsFolder, serverBuild });
}

/**
 * The public pages are prerendered with the SITE_URL of the build (their canonical links, Open Graph tags and
 * JSON-LD). A server running with another one says so once at start, rather than serving them stale in
 * silence; `npm start` rebuilds by itself when they differ.
 */
function warnOfStalePrerenderedPages(siteUrl: string, logger: Logger) {
  let prerenderedSiteUrl: unknown;
  try {
    prerenderedSiteUrl = JSON.parse(readFileSync(path.join(buildDir, "build-info.json"), "utf8")).siteUrl;
  } catch {
    return;
  }
  if (typeof prerenderedSiteUrl !== "string" || prerenderedSiteUrl === siteUrl) return;
  logger.warn(
    { prerenderedSiteUrl, siteUrl },
    `the public pages were prerendered for ${prerenderedSiteUrl}, not ${siteUrl}: their canonical links point there until "npm run build" runs with this SITE_URL (or PORT)`,
  );
}

async function serveHttp(app: RequestListener, { config, logger, onStop }: Startup) {
  const server = await listen(app, config.PORT, config.HOST);
  onStop("HTTP server", () => closeServer(server, logger));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const shownHost = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  const url = `http://${shownHost}:${port}`;
  logger.info({ port, url, mode: config.NODE_ENV }, `listening on ${url}`);
}

await main();
