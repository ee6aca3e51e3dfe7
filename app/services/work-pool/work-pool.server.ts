import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Piscina, { queueOptionsSymbol } from "piscina";
import { asPartOfABurst } from "../collect-after-bursts.server";
import type { Config } from "../config.server";
import { onePerProcess } from "../one-per-process.server";
import { AheadQueue, type QueueOptions } from "./ahead-queue";
import type { WorkFunction, WorkTask } from "./work-task";

/** A task found every worker busy and the queue full: the form answers 503 and keeps its answers. */
export class WorkPoolFull extends Error {
  override name = "WorkPoolFull";
}

const here = fileURLToPath(import.meta.url);
const fromSource = here.endsWith(".ts");
/**
 * The folder of the project's package.json above this module: it runs from app/services/work-pool in the tests, and
 * built from wherever the bundler put its chunk (build/server, build/server/assets, build/server-entry).
 */
function projectRootAbove(file: string): string {
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, "package.json"))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no package.json above ${file}`);
  }
}
const projectRoot = projectRootAbove(here);
/** scripts/build.mjs bundles server/work-worker.ts beside the server's entry; the tests load it through tsx. */
const WORKER_FILE = fromSource
  ? path.join(projectRoot, "server/work-worker.ts")
  : path.join(projectRoot, "build/server-entry/work-worker.js");

/** An idle worker goes after this long, so the memory of a busy hour is handed back at rest. */
const IDLE_TIMEOUT_MS = 30_000;

/** One per process: React Router's bundle runs the forms' tasks, and the server's bundle reads their load. */
const pools = onePerProcess("work pools", () => new Map<string, Piscina>());

/**
 * The worker threads that decode, clean and shrink photos and build PDFs, so that none of it holds up the
 * pages: PHOTO_WORKERS of them, each one task at a time (one photo, one PDF), with PHOTO_QUEUE_LIMIT tasks
 * waiting at most. One pool per pair of settings: the app has one, a test may make a small one.
 */
export function workPool(config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">): Piscina {
  const key = `${config.PHOTO_WORKERS}:${config.PHOTO_QUEUE_LIMIT}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: config.PHOTO_WORKERS,
      maxQueue: config.PHOTO_QUEUE_LIMIT,
      taskQueue: new AheadQueue(),
      concurrentTasksPerWorker: 1,
      idleTimeout: IDLE_TIMEOUT_MS,
      // A task's large buffers live outside V8's heap; a small young generation keeps what each worker holds of
      // the rest low (in one measurement, 388 against 448 MB at the peak of a checklist with two workers).
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
      execArgv: fromSource ? ["--import", "tsx"] : [],
    });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * What the pools hold now, for /metrics: tasks running (a worker runs one at a time, so its busy workers, a
 * starting one included) and tasks waiting in the queue.
 */
export function workPoolLoad(): { running: number; queued: number } {
  let running = 0;
  let queued = 0;
  for (const pool of pools.values()) {
    running += pool.threads.length - pool.idleThreads;
    queued += pool.queueSize;
  }
  return { running, queued };
}

/** Runs a work task in a worker; throws WorkPoolFull when it cannot even wait for one. */
export function inWorker<Run extends WorkFunction>(
  config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
  task: WorkTask<Run>,
  ...args: Parameters<Run>
): Promise<Awaited<ReturnType<Run>>> {
  return runTask(config, task, args, []);
}

/**
 * inWorker, with the bytes of `moving` moved to the worker rather than copied: the caller's arrays are empty
 * afterwards, and their memory goes with the task (a photo's tens of megabytes are not held twice).
 */
export function movingToWorker<Run extends WorkFunction>(
  config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
  moving: readonly Uint8Array[],
  task: WorkTask<Run>,
  ...args: Parameters<Run>
): Promise<Awaited<ReturnType<Run>>> {
  return runTask(config, task, args, transferable(moving));
}

/**
 * movingToWorker for a small task someone is watching the screen for: it goes ahead of every task queued without
 * this (ahead-queue.ts), and waits only for a worker to finish what it is doing.
 */
export function movingToWorkerAhead<Run extends WorkFunction>(
  config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
  moving: readonly Uint8Array[],
  task: WorkTask<Run>,
  ...args: Parameters<Run>
): Promise<Awaited<ReturnType<Run>>> {
  return runTask(config, task, args, transferable(moving), { ahead: true });
}

/** Only an array that is the whole of its buffer moves: a Buffer from Node's shared pool is copied as usual. */
function transferable(moving: readonly Uint8Array[]): ArrayBuffer[] {
  const wholeBuffers = moving
    .filter((bytes) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    .map((bytes) => bytes.buffer)
    .filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
  return [...new Set(wholeBuffers)];
}

async function runTask<Run extends WorkFunction>(
  config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
  task: WorkTask<Run>,
  args: Parameters<Run>,
  transferList: ArrayBuffer[],
  queueOptions: QueueOptions = {},
): Promise<Awaited<ReturnType<Run>>> {
  // The queue options ride under piscina's symbol, which the copy to the worker leaves behind.
  const posted = { task: task.name, args, [queueOptionsSymbol]: queueOptions };
  try {
    // The worker finds the function by its name (server/work-worker.ts); the function itself does not cross.
    return await asPartOfABurst(() => workPool(config).run(posted, { transferList }));
  } catch (error) {
    if (error instanceof Error && /task queue is at limit|no task queue available/i.test(error.message)) {
      throw new WorkPoolFull("every photo worker is busy and the queue is full");
    }
    throw error;
  }
}
