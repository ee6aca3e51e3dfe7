import type { Logger } from "pino";
import type { Config } from "./config.server";
import type { Database } from "./db/database.server";

/** What a periodic job may use: the app's services, as the server starts them. */
export type JobServices = { db: Database; config: Config; logger: Logger; wakeDeliveryWorker: () => void };

export type PeriodicJob = { start: () => void; stop: () => Promise<void> };

/**
 * Runs `run` at start and then every `everyMs`, one run after the other; a run that fails is logged as `name`
 * and the next goes ahead. `stop` waits for the run under way.
 */
export function periodicJob(name: string, everyMs: number, run: () => Promise<void>, logger: Logger): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const runLogged = () => run().catch((error: unknown) => logger.error({ err: error }, `${name} run failed`));
  return {
    start: () => {
      running = runLogged();
      timer = setInterval(() => {
        running = running.then(runLogged);
      }, everyMs);
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
