import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The niceness of photo and PDF work: the thread that answers the pages (0) gets about ten times its CPU share. */
export const WORK_NICENESS = 10;

/**
 * The threads that do sharp's work for a task without being the task's thread: libvips's own pool, which the
 * threads of libuv's pool start (themselves started by the main thread), so they inherit the pages' niceness, not
 * the worker's. Node 22 and later name libuv's threads too; Node 20 names them "node", like V8's helpers.
 */
const PHOTO_WORK_THREADS = new Set(["libvips worker", "libuv-worker"]);

type ThreadStat = { tid: number; name: string; niceness: number };

function threadStat(tid: number): ThreadStat | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    // The name is in parentheses and may hold spaces; niceness is the 17th field after it (proc(5)).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { tid, name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), niceness: Number(fields[16]) };
  } catch {
    return undefined; // the thread ended meanwhile
  }
}

/** This process's threads as Linux sees them: id, name and niceness. Empty elsewhere than Linux. */
export function processThreads(): ThreadStat[] {
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return [];
  }
  return tids.map((tid) => threadStat(Number(tid))).filter((stat) => stat !== undefined);
}

/**
 * Lowers the priority of the calling thread (a worker of the pool) and of the threads that do sharp's work, to
 * WORK_NICENESS, so that photo and PDF work gives way to the thread answering the pages when both want a core.
 * Linux keeps a niceness per thread; a thread already nicer is left alone. Called before each task, as libvips
 * starts new threads when it needs more. Elsewhere than Linux it does nothing.
 */
export function lowerWorkThreadsPriority(): void {
  const renice = (tid: number) => {
    try {
      setPriority(tid, WORK_NICENESS);
    } catch {
      // Gone meanwhile, or not ours to change: that thread keeps its share.
    }
  };
  let self: number | undefined;
  try {
    self = Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return;
  }
  for (const thread of processThreads()) {
    if (thread.niceness >= WORK_NICENESS) continue;
    if (thread.tid === self || PHOTO_WORK_THREADS.has(thread.name)) renice(thread.tid);
  }
}
