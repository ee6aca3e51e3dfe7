import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { Logger } from "pino";

const SHUTDOWN_GRACE_MS = 10_000;
const SHUTDOWN_DEADLINE_MS = 30_000;

export type Lifecycle = {
  /** Registers how to stop what a start step just started. */
  onStop: (name: string, stop: () => Promise<void>) => void;
  /** Runs the stop steps, each even when one before it failed, then exits: 1 when asked to or when a step failed. */
  shutdown: (reason: string, exitCode?: number) => Promise<void>;
};

/**
 * The process's stop steps, run once, on SIGTERM, Ctrl-C or a failed start, in the reverse order of their starts:
 * what came up last depends on what came up before it, so the HTTP server stops taking requests first and the
 * database goes last. A shutdown that hangs past the deadline exits 1.
 */
export function stopOnSignals(logger: Logger): Lifecycle {
  const stopSteps: Array<{ name: string; stop: () => Promise<void> }> = [];
  let shuttingDown = false;
  const shutdown = async (reason: string, exitCode = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ reason }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    let failed = exitCode !== 0;
    for (const step of stopSteps.reverse()) {
      try {
        await step.stop();
      } catch (error) {
        failed = true;
        logger.error({ err: error }, `shutdown step failed: ${step.name}`);
      }
    }
    logger.info("stopped");
    logger.flush();
    process.exit(failed ? 1 : 0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return { onStop: (name, stop) => void stopSteps.push({ name, stop }), shutdown };
}

export async function listen(answer: RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer(answer);
  const listening = once(server, "listening");
  server.listen(port, host);
  await listening;
  return server;
}

/** Stops accepting connections, lets requests in flight finish, and cuts the rest after a grace period. */
export function closeServer(server: Server, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const forceClose = setTimeout(() => {
      logger.warn("requests still open after the grace period; closing their connections");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearTimeout(forceClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}
