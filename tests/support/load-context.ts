import pino from "pino";
import { type AppLoadContext, RouterContextProvider } from "react-router";
import { createDeliveryWorker } from "../../app/outbox/worker.server";
import { loadConfig } from "../../app/services/config.server";
import type { Database } from "../../app/services/db/database.server";
import { TEST_SESSION_SECRET } from "./test-session-secret";

/** 32 bytes in hex, as an operator would set DATA_ENCRYPTION_KEY. */
export const TEST_DATA_ENCRYPTION_KEY = "5e".repeat(32);
/** A key the tests' servers do not have: what a secret sealed before a restore without the key was sealed with. */
export const LOST_DATA_ENCRYPTION_KEY = "a7".repeat(32);

/** What the Express server hands loaders and actions, for calling them as functions against a test database. */
export function loadContextFor(
  db: Database,
  env: Record<string, string> = {},
  clientIp = "192.0.2.10",
): AppLoadContext {
  const config = loadConfig({
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    PUBLIC_FORM_RATE_LIMIT: "100000",
    ...env,
  });
  const logger = pino({ level: "silent" });
  const deliveryWorker = createDeliveryWorker({ db, config, logger });
  return Object.assign(new RouterContextProvider(), {
    config,
    logger,
    db,
    deliveryWorker,
    clientIp,
    keepClientOutOfLog: () => undefined,
    cspNonce: "test-nonce",
  });
}
