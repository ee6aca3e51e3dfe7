import type { Logger } from "pino";

declare module "react-router" {
  /** What the Express server hands every loader and action (see server/app.ts). */
  interface AppLoadContext {
    logger: Logger;
  }
}
