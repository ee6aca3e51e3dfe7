import type { Logger } from "pino";
import type { DeliveryWorker } from "../app/features/deliveries/worker.server";
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

  /**
   * With middleware on, the load context is a RouterContextProvider; the server sets the app's services on it
   * as fields, the migration React Router documents (docs/decisions/0902-staff-middleware.md).
   */
  interface RouterContextProvider extends AppLoadContext {}

  interface Future {
    v8_middleware: true;
  }
}
