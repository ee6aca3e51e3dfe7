// The set-up's part of `npm run bench` (issue 40's goal: a fresh clone answers within 60 s on this machine):
// clones this repository's HEAD into a temporary folder, then times the README's `npm install --omit=dev` and
// `npm start` until /readyz answers, with what the first start spent on its build. npm's cache is whatever this
// machine has, warm after the project's own install: the figure is the set-up's, not the registry's.
// Run alone: npm run bench -- fresh-clone.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { findFreePort } from "../app/services/free-port.server";
import type { BenchRow } from "./bench-table";
import { projectRoot } from "./build-info.mjs";

export const FRESH_CLONE_GOAL_S = 60;

export type FreshCloneResult = {
  commit: string;
  installS: number;
  firstStartS: number;
  /** What the build printed as its own time ("build: done in X s"). */
  buildS?: number;
};

/** Runs `command` in `cwd` with its output kept; resolves with the seconds it took, rejects with its output. */
function timed(command: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/** `npm start` in `cwd` until /readyz answers: the seconds, and the build's own time from its output. */
async function firstStart(cwd: string): Promise<{ seconds: number; buildS?: number; stop: () => Promise<void> }> {
  const port = await findFreePort();
  const started = performance.now();
  // Its own process group, so that nothing it started outlives the measure.
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    const pid = child.pid;
    if (pid === undefined) return;
    // npm passes the signal on, and the server stops its PostgreSQL before it exits; whatever of the group is
    // left after that (a build still running) is ended.
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Nothing of the group was left.
    }
  };
  const deadline = Date.now() + 600_000;
  while (!(await answers(`http://127.0.0.1:${port}/readyz`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not answer on /readyz:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const build = /build: done in ([\d.]+) s/.exec(output)?.[1];
  return { seconds, buildS: build === undefined ? undefined : Number(build), stop };
}

export async function benchFreshClone(): Promise<FreshCloneResult> {
  const folder = await mkdtemp(path.join(tmpdir(), "tce-fresh-clone-"));
  // As root the embedded PostgreSQL runs as `postgres`, which must reach its folder inside the clone.
  await chmod(folder, 0o755);
  const clone = path.join(folder, "clone");
  try {
    execFileSync("git", ["clone", "--quiet", projectRoot, clone]);
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: clone, encoding: "utf8" }).trim();
    console.log(`bench: fresh clone of ${commit}: npm install --omit=dev, then npm start until /readyz answers`);
    const installS = await timed("npm", ["install", "--omit=dev"], clone);
    const start = await firstStart(clone);
    await start.stop();
    return { commit, installS, firstStartS: start.seconds, buildS: start.buildS };
  } finally {
    await rm(folder, { recursive: true, force: true, maxRetries: 5 });
  }
}

export function freshCloneBenchRows(result: FreshCloneResult): BenchRow[] {
  const total = result.installS + result.firstStartS;
  return [
    {
      measure: `fresh clone (${result.commit}) to /readyz answering`,
      ours:
        `${total.toFixed(1)} s: npm install --omit=dev ${result.installS.toFixed(1)} s, first npm start ` +
        `${result.firstStartS.toFixed(1)} s (build ${result.buildS?.toFixed(1) ?? "n/a"} s)`,
      reference: "",
      goal: `<= ${FRESH_CLONE_GOAL_S} s`,
      met: total <= FRESH_CLONE_GOAL_S,
    },
  ];
}
