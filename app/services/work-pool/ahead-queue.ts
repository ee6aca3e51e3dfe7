import { queueOptionsSymbol, type TaskQueue } from "piscina";

/** The queue options a task carries (under piscina's queue-options symbol) to go ahead of the others. */
export type QueueOptions = { ahead?: boolean };

type QueuedTask = Parameters<TaskQueue["push"]>[0];

const isAhead = (task: QueuedTask) => (task[queueOptionsSymbol] as QueueOptions | null)?.ahead === true;

/**
 * The work pool's queue in two lanes: a task someone is watching the screen for, small by nature (a photo's
 * preview while photos are picked), goes before every task queued in bulk (a submitted checklist's ten photos),
 * which otherwise would make it wait for all of them. Each lane keeps its own order.
 */
export class AheadQueue implements TaskQueue {
  readonly #ahead: QueuedTask[] = [];
  readonly #rest: QueuedTask[] = [];

  get size(): number {
    return this.#ahead.length + this.#rest.length;
  }

  push(task: QueuedTask): void {
    (isAhead(task) ? this.#ahead : this.#rest).push(task);
  }

  /** Back to the front of its lane (piscina puts a task back this way when its worker went). */
  unshift(task: QueuedTask): void {
    (isAhead(task) ? this.#ahead : this.#rest).unshift(task);
  }

  shift(): QueuedTask | null {
    return this.#ahead.shift() ?? this.#rest.shift() ?? null;
  }

  remove(task: QueuedTask): void {
    for (const lane of [this.#ahead, this.#rest]) {
      const index = lane.indexOf(task);
      if (index !== -1) lane.splice(index, 1);
    }
  }
}
