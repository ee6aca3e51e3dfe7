/** A function the pool's workers can run: its arguments and its result cross threads by structured clone. */
export type WorkFunction = (...args: never[]) => unknown;

/** A function the pool's workers run, with the name the worker looks it up by. */
export type WorkTask<Run extends WorkFunction = WorkFunction> = { readonly name: string; readonly run: Run };

/** A folder's work tasks, by name. */
export type WorkTaskSet = Readonly<Record<string, WorkTask>>;

/**
 * The functions a folder hands the work pool, each named by its key; `inWorker(config, tasks.checklistPdf, ...)`
 * runs one, typed by its function. A feature exports them as `workTasks` from its `work-tasks.server.ts`, which
 * scripts/feature-index.mjs collects for the worker (server/work-worker.ts).
 */
export function defineWorkTasks<Functions extends Record<string, WorkFunction>>(functions: Functions) {
  return Object.fromEntries(Object.entries(functions).map(([name, run]) => [name, { name, run }])) as {
    readonly [Name in keyof Functions & string]: WorkTask<Functions[Name]>;
  };
}
