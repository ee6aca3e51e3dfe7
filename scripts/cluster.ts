// `npm run cluster -- [instances]`: the production arrangement on one machine. N app instances (2 by default)
// on one PostgreSQL (DATABASE_URL, or one embedded server in DATA_DIR/cluster/postgres shared by all), behind
// Debian's nginx on CLUSTER_PORT (8080). An instance that exits is started again, as systemd would. Prints
// one JSON line starting with "cluster ready" once nginx answers; Ctrl-C or SIGTERM stops everything.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pino from "pino";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { findFreePort, findFreePorts } from "../app/services/free-port.server";
import { resolveVapidKeys } from "../app/services/vapid-keys.server";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";
import { clusterSiteUrl } from "./cluster-site-url";
import { nginxConfig } from "./nginx-config";

const NGINX = process.env.NGINX_PATH || "/usr/sbin/nginx";
const RESTART_DELAY_MS = 1_000;

type Instance = { index: number; port: number; dataDir: string; child?: ChildProcess };

async function main() {
  const count = Number.parseInt(process.argv[2] ?? "2", 10);
  if (!Number.isInteger(count) || count < 1) throw new Error("cluster: give the number of instances, e.g. 2");
  if (!existsSync(NGINX)) {
    throw new Error(`cluster: no nginx at ${NGINX}; install Debian's nginx package (apt-get install nginx)`);
  }
  const listenPort = Number.parseInt(process.env.CLUSTER_PORT ?? "8080", 10) || (await findFreePort());
  // The prerendered pages carry SITE_URL: built and served for the address nginx listens on, unless told otherwise.
  const siteUrl = clusterSiteUrl(process.env.SITE_URL, listenPort);
  process.env.SITE_URL = siteUrl;
  buildIfNeeded("cluster");

  const logger = pino({ level: process.env.LOG_LEVEL ?? "info" });
  const baseDir = path.resolve(process.env.DATA_DIR ?? "./data", "cluster");
  await mkdir(baseDir, { recursive: true });
  const stopSteps: (() => Promise<unknown>)[] = [];

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({ dataDir: baseDir, logger });
    stopSteps.push(embedded.stop);
    databaseUrl = embedded.url;
  }

  const sharedEnv = {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SITE_URL: siteUrl,
    // nginx connects from 127.0.0.1: believe its X-Forwarded-For, and nobody else's.
    TRUST_PROXY: process.env.TRUST_PROXY ?? "127.0.0.1",
    SESSION_SECRET: process.env.SESSION_SECRET ?? (await sharedSecret(path.join(baseDir, "session-secret"))),
    DATA_ENCRYPTION_KEY:
      process.env.DATA_ENCRYPTION_KEY ?? (await sharedSecret(path.join(baseDir, "data-encryption-key"))),
    // One key for every instance: a backup taken by any of them opens with it.
    BACKUP_ENCRYPTION_KEY:
      process.env.BACKUP_ENCRYPTION_KEY ?? (await sharedSecret(path.join(baseDir, "backup-encryption-key"))),
    // One key pair for every instance: a device subscribed through one is pushed to by all.
    ...(await sharedVapidKeys(baseDir)),
  };

  let stopping = false;
  const instances: Instance[] = [];
  const ports = await findFreePorts(count, [listenPort]);
  for (const [offset, port] of ports.entries()) {
    const index = offset + 1;
    const dataDir = path.join(baseDir, `instance-${index}`);
    await mkdir(dataDir, { recursive: true });
    instances.push({ index, port, dataDir });
  }
  const run = (instance: Instance) => {
    const child = spawn(process.execPath, [path.join(projectRoot, "build/server-entry/index.js")], {
      env: { ...sharedEnv, PORT: String(instance.port), DATA_DIR: instance.dataDir },
      stdio: ["ignore", "inherit", "inherit"],
    });
    instance.child = child;
    child.once("exit", (code, signal) => {
      if (stopping) return;
      logger.warn({ instance: instance.index, code, signal }, "cluster: instance exited; starting it again");
      setTimeout(() => run(instance), RESTART_DELAY_MS);
    });
  };
  for (const instance of instances) run(instance);
  stopSteps.push(() =>
    Promise.all(
      instances.map(async ({ child }) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }),
    ),
  );
  await Promise.all(instances.map((instance) => waitForReady(`http://127.0.0.1:${instance.port}/readyz`)));

  const nginxDir = path.join(baseDir, "nginx");
  await mkdir(nginxDir, { recursive: true });
  const configFile = path.join(nginxDir, "nginx.conf");
  await writeFile(
    configFile,
    nginxConfig({
      listen: `127.0.0.1:${listenPort}`,
      upstreams: instances.map((instance) => `127.0.0.1:${instance.port}`),
      runDir: nginxDir,
    }),
  );
  const nginx = spawn(NGINX, ["-p", nginxDir, "-c", configFile, "-e", path.join(nginxDir, "error.log")], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  stopSteps.push(async () => {
    if (nginx.exitCode !== null) return;
    const exited = new Promise((resolve) => nginx.once("exit", resolve));
    nginx.kill("SIGQUIT");
    await exited;
  });
  nginx.once("exit", (code) => {
    if (!stopping) void stop(`nginx exited with code ${code}`, 1);
  });
  const url = `http://127.0.0.1:${listenPort}`;
  await waitForReady(`${url}/readyz`);

  const stop = async (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "cluster: stopping");
    for (const step of stopSteps.reverse()) await step().catch((error) => logger.error({ err: error }, "cluster"));
    process.exit(exitCode);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  const ready = {
    url,
    databaseUrl,
    instances: instances.map((instance) => ({
      index: instance.index,
      pid: instance.child?.pid,
      url: `http://127.0.0.1:${instance.port}`,
    })),
  };
  process.stdout.write(`cluster ready ${JSON.stringify(ready)}\n`);
}

/** A secret every instance shares (sessions and encrypted data must read the same on all), kept in DATA_DIR. */
async function sharedVapidKeys(baseDir: string) {
  const keys = await resolveVapidKeys({
    DATA_DIR: baseDir,
    VAPID_PUBLIC_KEY: process.env.VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: process.env.VAPID_PRIVATE_KEY,
  });
  return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
}

async function sharedSecret(file: string): Promise<string> {
  const existing = (await readFile(file, "utf8").catch(() => "")).trim();
  if (existing) return existing;
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function waitForReady(url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`cluster: ${url} did not become ready`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
