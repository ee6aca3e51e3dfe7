import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtemp } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { appDataParent } from "./test-run-directory";
import { TEST_SESSION_SECRET } from "./test-session-secret";

export const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const SERVER_ENTRY = "build/server-entry/index.js";

export type AppServer = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Every line the server printed so far, stdout and stderr. Log lines reach it up to 100 ms late, batched. */
  output: string[];
  /** Resolves with the first printed line that contains `text`, waiting for one to come. */
  waitForLine: (text: string, timeoutMs?: number) => Promise<string>;
  /**
   * Every line printed so far, once the log has written out all it holds: it waits for the access-log line of a
   * request made now, which comes after every line logged before it. For asserting that something was not logged.
   */
  flushedOutput: () => Promise<string[]>;
  /** Sends the signal and resolves with the exit code once the process has exited. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

type StartOptions = {
  dataDir?: string;
  env?: Record<string, string | undefined>;
  startTimeoutMs?: number;
  /** What to run, from the project root: the built server by default, or e.g. `scripts/start.mjs` (npm start). */
  entry?: string;
  /** The project whose build runs: this one unless a test built a changed copy. */
  root?: string;
};

/**
 * Starts the built app (`npm run build` first) as its own process on a free port, with its own data
 * directory. Without DATABASE_URL in `env` it starts its embedded PostgreSQL there.
 */
export async function startAppServer(options: StartOptions = {}): Promise<AppServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(appDataParent(), "tce-app-")));
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    // Its own: the default beside DATA_DIR would be one folder for every app of the run, each with its own database.
    BACKUP_DIR: path.join(dataDir, "backups"),
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    SESSION_SECRET: TEST_SESSION_SECRET,
    // A base backup and WAL archiving in every test app would cost each start seconds of copying; the
    // point-in-time tests turn it on.
    WAL_ARCHIVE: options.env?.DATABASE_URL ? undefined : "off",
    ...options.env,
  };
  const { child, output, exited, lines } = spawnApp(env, options.entry, options.root);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: it would hold its port and its PostgreSQL after the test gave up on it.
      child.kill("SIGTERM");
      reject(new Error(`the app did not start in time:\n${output.join("\n")}`));
    }, options.startTimeoutMs ?? 60_000);
    const onLine = (line: string) => {
      const match = /listening on (http:\/\/\S+?)"/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    lines.on("line", onLine);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with code ${code} before listening:\n${output.join("\n")}`));
    });
  });

  const waitForLine = (text: string, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const already = output.find((line) => line.includes(text));
      if (already !== undefined) return resolve(already);
      const timer = setTimeout(() => {
        lines.off("line", onLine);
        reject(new Error(`no line with ${JSON.stringify(text)} in ${timeoutMs} ms:\n${output.join("\n")}`));
      }, timeoutMs);
      const onLine = (line: string) => {
        if (!line.includes(text)) return;
        clearTimeout(timer);
        lines.off("line", onLine);
        resolve(line);
      };
      lines.on("line", onLine);
    });

  return {
    url,
    dataDir,
    process: child,
    output,
    waitForLine,
    flushedOutput: async () => {
      // In the path: the access log leaves out a query's values.
      const marker = `/log-mark-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await fetch(`${url}${marker}`);
      await waitForLine(marker);
      return [...output];
    },
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the built app expecting it to refuse to start; resolves with its exit code and output. */
export async function runAppExpectingFailure(env: Record<string, string>) {
  const { output, exited } = spawnApp({ PATH: process.env.PATH, ...env });
  const code = await exited;
  return { code, output: output.join("\n") };
}

function spawnApp(env: Record<string, string | undefined>, entry = SERVER_ENTRY, root = projectRoot) {
  // With the memory settings `npm start` and the deploy unit run it with (jemalloc where installed); the script
  // ends in exec, so the process is the app's own.
  const withMemorySettings = path.join(projectRoot, "scripts/with-memory-settings.sh");
  const child = spawn("sh", [withMemorySettings, process.execPath, path.join(root, entry)], {
    cwd: root,
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)),
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, as a terminal gives a program: Ctrl-C reaches the app and its PostgreSQL alike.
    detached: true,
  });
  const output: string[] = [];
  const lines = new EventEmitter<{ line: [string] }>();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      output.push(line);
      lines.emit("line", line);
    });
  }
  return { child, output, exited, lines };
}
