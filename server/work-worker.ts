import { photoWorkTasks } from "../app/services/photos/clean-photo.server";
import { sitePhotoWorkTasks } from "../app/services/site-photos/render-site-photo.server";
import type { WorkTask } from "../app/services/work-pool/work-task";
import { featureWorkTasks } from "./feature-work-tasks.generated";
import { lowerWorkThreadsPriority } from "./work-thread-priority";

/**
 * What the worker threads of app/services/work-pool/work-pool.server.ts run, by name: the platform's photo work and
 * the tasks each feature declares in its work-tasks.server.ts (collected by scripts/feature-index.mjs). Bundled by
 * scripts/build.mjs to build/server-entry/work-worker.js; arguments and results cross threads by structured clone.
 */
const tasksByName = new Map<string, WorkTask>();
for (const task of [photoWorkTasks, sitePhotoWorkTasks, ...featureWorkTasks].flatMap((tasks) => Object.values(tasks))) {
  // The pool posts only a task's name: two folders giving one name would have one function run for both.
  if (tasksByName.has(task.name)) throw new Error(`Two work tasks are named ${task.name}`);
  tasksByName.set(task.name, task);
}

lowerWorkThreadsPriority();

export default async function runWorkTask({ task, args }: { task: string; args: unknown[] }) {
  const found = tasksByName.get(task);
  if (!found) throw new Error(`No work task is named ${task}`);
  lowerWorkThreadsPriority();
  try {
    // The pool's typed callers (inWorker, movingToWorker) sent the arguments of this very function.
    return await (found.run as (...args: unknown[]) => unknown)(...args);
  } finally {
    // Threads libvips started for this task run at the pages' priority until they are lowered.
    lowerWorkThreadsPriority();
  }
}
