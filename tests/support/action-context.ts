import pino from "pino";
import type { AppLoadContext } from "react-router";
import { createDeliveryWorker } from "../../app/features/deliveries/worker.server";
import { loadConfig } from "../../app/server/config.server";
import type { TestDatabase } from "./test-database";

/** The load context an action gets from the server, on a test database, with silent logs and the given settings. */
export function actionContext(database: TestDatabase, env: Record<string, string>, clientIp: string): AppLoadContext {
  const config = loadConfig({ PUBLIC_FORM_RATE_LIMIT: "100000", ...env });
  const logger = pino({ level: "silent" });
  const deliveryWorker = createDeliveryWorker({ db: database.db, config, logger });
  return { config, logger, db: database.db, deliveryWorker, clientIp };
}
