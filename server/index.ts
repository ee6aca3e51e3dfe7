import { readFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { company } from "../app/content/company";
import { runAlertTexts } from "../app/features/inbox/alert-texts.server";
import { runRetention } from "../app/features/inbox/retention.server";
import { webhookTargets } from "../app/features/submission-types.server";
import { deleteAbandonedUploads, resumableUploadsDirectory } from "../app/forms/resumable-uploads.server";
import { createEmailSender } from "../app/outbox/email-sender.server";
import { createSmsSender } from "../app/outbox/sms-sender.server";
import { deleteAbandonedStagedFiles } from "../app/outbox/staged-files.server";
import { logUnsetTargets } from "../app/outbox/targets.server";
import { createDeliveryWorker } from "../app/outbox/worker.server";
import { resolveDataEncryptionKey } from "../app/server/auth/data-encryption.server";
import { sealPlainTotpSecrets } from "../app/server/auth/second-factor.server";
import { resolveSessionSecret } from "../app/server/auth/session-secret.server";
import { announceFirstAdminSetup } from "../app/server/auth/setup-link.server";
import { createBackupJob } from "../app/server/backup/backup-schedule.server";
import { ConfigError, loadConfig } from "../app/server/config.server";
import { assertPortFree } from "../app/server/data-dir-lock.server";
import { connectDatabase } from "../app/server/db/database.server";
import { startEmbeddedPostgres } from "../app/server/db/embedded-postgres.server";
import { applyMigrations } from "../app/server/db/migrations.server";
import { createLogger, redactedError } from "../app/server/logger.server";
import { periodicJob } from "../app/server/periodic-job.server";
import { StartRefusal } from "../app/server/start-refusal.server";
import { createApp } from "./app";

/** This file is bundled to build/server-entry/index.js, two levels below the project root. */
const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The public pages are prerendered with the SITE_URL of the build (their canonical links, Open Graph tags and
 * JSON-LD). A server running with another one says so once at start, rather than serving them stale in
 * silence; `npm start` rebuilds by itself when they differ.
 */
function warnOfStalePrerenderedPages(buildDir: string, siteUrl: string, logger: Logger) {
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
const SHUTDOWN_GRACE_MS = 10_000;
const SHUTDOWN_DEADLINE_MS = 30_000;

async function main(): Promise<void> {
  // scripts/with-memory-settings.sh preloads jemalloc for this process only: PostgreSQL, backups and any other
  // program the app starts keep their own allocator.
  if (process.env.LD_PRELOAD?.includes("libjemalloc")) delete process.env.LD_PRELOAD;
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  config = {
    ...config,
    SESSION_SECRET: await resolveSessionSecret(config),
    DATA_ENCRYPTION_KEY: await resolveDataEncryptionKey(config),
  };

  const stopSteps: Array<{ name: string; run: () => Promise<void> }> = [];
  let shuttingDown = false;
  const shutdown = async (reason: string, exitCode = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ reason }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    let failed = exitCode !== 0;
    for (const step of stopSteps.reverse()) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        logger.error({ err: error }, `shutdown step failed: ${step.name}`);
      }
    }
    logger.info("stopped");
    logger.flush();
    process.exit(failed ? 1 : 0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  try {
    await assertPortFree(config.PORT, config.HOST);
    let databaseUrl = config.DATABASE_URL;
    let embeddedDatabaseUp = () => true;
    if (!databaseUrl) {
      const embedded = await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        logger,
        // A supervisor (systemd, the cluster script) restarts the whole app; a half-alive one helps nobody.
        onLost: (error) => {
          logger.fatal({ err: error }, error.message);
          void shutdown("embedded PostgreSQL lost", 1);
        },
      });
      stopSteps.push({ name: "embedded PostgreSQL", run: embedded.stop });
      databaseUrl = embedded.url;
      embeddedDatabaseUp = embedded.isUp;
    }
    const database = connectDatabase(databaseUrl, logger);
    stopSteps.push({ name: "database pool", run: database.close });

    const migrationsFolder = path.join(rootDir, "drizzle");
    await applyMigrations(database.pool, migrationsFolder);
    const sealed = await sealPlainTotpSecrets(database.db, config.DATA_ENCRYPTION_KEY);
    if (sealed > 0) logger.info({ users: sealed }, "encrypted the second-factor secrets stored before encryption");

    await announceFirstAdminSetup(database.db, config.SITE_URL, logger);
    logUnsetTargets(config, logger, webhookTargets);
    const emailSender = config.SMTP_URL
      ? createEmailSender(config.SMTP_URL, config.MAIL_FROM ?? `${company.name} <no-reply@localhost>`)
      : undefined;
    const smsSender =
      config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
        ? createSmsSender(
            {
              accountSid: config.TWILIO_ACCOUNT_SID,
              authToken: config.TWILIO_AUTH_TOKEN,
              from: config.TWILIO_FROM,
              apiUrl: config.TWILIO_API_URL,
            },
            logger,
          )
        : undefined;
    const deliveryWorker = createDeliveryWorker({ db: database.db, config, logger, emailSender, smsSender });
    deliveryWorker.start();
    stopSteps.push({
      name: "delivery worker",
      run: async () => {
        await deliveryWorker.stop();
        emailSender?.close();
      },
    });

    const alertSmsTo = config.ALERT_SMS_TO;
    const backupJob = createBackupJob({
      db: database.db,
      config,
      logger,
      sendAlertText:
        smsSender && alertSmsTo ? async (text) => (await smsSender.send(alertSmsTo, { text })).ok : undefined,
    });
    backupJob.start();
    stopSteps.push({ name: "backup job", run: backupJob.stop });

    const services = { db: database.db, config, logger, wakeDeliveryWorker: deliveryWorker.wake };
    const inboxJobs = [
      { name: "retention", everyMs: 3_600_000, run: runRetention },
      // Photos that went up or were staged for a form never stored are gone within a day.
      {
        name: "abandoned uploads",
        everyMs: 3_600_000,
        run: async () => {
          await deleteAbandonedUploads(resumableUploadsDirectory(config.DATA_DIR));
          await deleteAbandonedStagedFiles(database.db);
        },
      },
      // Each dashboard alert is texted to the on-call mobile, through Twilio.
      ...(config.ALERT_SMS_TO && config.TWILIO_ACCOUNT_SID
        ? [{ name: "alert text", everyMs: 60_000, run: runAlertTexts }]
        : []),
    ];
    for (const { name, everyMs, run } of inboxJobs) {
      const job = periodicJob(name, everyMs, () => run(services), logger);
      job.start();
      stopSteps.push({ name: `${name} job`, run: job.stop });
    }

    const buildDir = path.join(rootDir, "build");
    warnOfStalePrerenderedPages(buildDir, config.SITE_URL, logger);
    const serverBuild: ServerBuild = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
    const app = createApp({
      config,
      logger,
      database,
      deliveryWorker,
      buildDir,
      migrationsFolder,
      serverBuild,
      isDatabaseProcessUp: embeddedDatabaseUp,
    });

    const server = await listen(app, config.PORT, config.HOST);
    stopSteps.push({ name: "HTTP server", run: () => closeServer(server, logger) });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const shownHost = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
    logger.info(
      { port, url: `http://${shownHost}:${port}`, mode: config.NODE_ENV },
      `listening on http://${shownHost}:${port}`,
    );
  } catch (error) {
    if (error instanceof StartRefusal) {
      logger.flush();
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.fatal({ err: error }, error instanceof Error ? redactedError(error).message : "start failed");
    }
    await shutdown("start failure", 1);
  }
}

function listen(answer: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(answer);
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** Stops accepting connections, lets requests in flight finish, and cuts the rest after a grace period. */
function closeServer(server: Server, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const forceClose = setTimeout(() => {
      logger.warn("requests still open after the grace period; closing their connections");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearTimeout(forceClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}

await main();
