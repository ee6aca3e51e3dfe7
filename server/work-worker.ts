import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { photoWorkTasks } from "../app/server/photos/clean-photo.server";
import type { WorkTask } from "../app/server/work-pool/work-task";
import { featureWorkTasks } from "./feature-work-tasks.generated";

/**
 * What the worker threads of app/server/work-pool/work-pool.server.ts run, by name: the platform's photo work and
 * the tasks each feature declares in its work-tasks.server.ts (collected by scripts/feature-index.mjs). Bundled by
 * scripts/build.mjs to build/server-entry/work-worker.js; arguments and results cross threads by structured clone.
 */
const tasksByName = new Map<string, WorkTask>();
for (const task of [photoWorkTasks, ...featureWorkTasks].flatMap((tasks) => Object.values(tasks))) {
  // The pool posts only a task's name: two folders giving one name would have one function run for both.
  if (tasksByName.has(task.name)) throw new Error(`Two work tasks are named ${task.name}`);
  tasksByName.set(task.name, task);
}

/**
 * On Linux each thread has its own niceness, and the threads libvips starts from this one inherit it: photo and
 * PDF work then gives way to the thread that answers the pages when both want a core. (Measured with four
 * checklists at once, the sign-in page's worst time did not change with it: that stall is elsewhere.)
 */
function yieldToThePages() {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (threadId > 0) setPriority(threadId, 10);
  } catch {
    // Elsewhere than Linux there is no per-thread niceness to set: the work runs as before.
  }
}
yieldToThePages();

export default function runWorkTask({ task, args }: { task: string; args: unknown[] }) {
  const found = tasksByName.get(task);
  if (!found) throw new Error(`No work task is named ${task}`);
  // The pool's typed callers (inWorker, movingToWorker) sent the arguments of this very function.
  return (found.run as (...args: unknown[]) => unknown)(...args);
}
