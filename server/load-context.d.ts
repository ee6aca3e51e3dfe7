import type { Logger } from "pino";
import type { DeliveryWorker } from "../app/outbox/worker.server";
import type { Config } from "../app/server/config.server";
import type { Database } from "../app/server/db/database.server";

declare module "react-router" {
  /** What the Express server hands every loader and action (see server/app.ts). */
  interface AppLoadContext {
    logger: Logger;
    config: Config;
    db: Database;
    deliveryWorker: DeliveryWorker;
    /** The address the request came from, for rate limits and abuse handling. */
    clientIp: string;
    /** The Content-Security-Policy nonce of this response, for the inline scripts React Router writes. */
    cspNonce: string;
  }
}
