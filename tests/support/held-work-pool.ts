import { fileURLToPath } from "node:url";
import type Piscina from "piscina";

const HELD_TASK_FILE = fileURLToPath(new URL("./held-work-task.mjs", import.meta.url));

/**
 * Fills a work pool: `tasks` tasks that each hold a worker, or a place in its queue, until `release` is called.
 * With as many tasks as the pool's workers and queue places together, the next task finds it full.
 */
export function holdWorkPool(pool: Piscina, tasks: number) {
  const gate = new SharedArrayBuffer(4);
  const held = Array.from({ length: tasks }, () => pool.run({ gate }, { filename: HELD_TASK_FILE }));
  return {
    release: async () => {
      const flag = new Int32Array(gate);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      await Promise.all(held);
    },
  };
}
