import type { Logger } from "pino";
import type { RouterContext } from "react-router";
import type { SiteContent } from "../app/content/site-content";
import type { DeliveryWorker } from "../app/outbox/worker.server";
import type { Config } from "../app/services/config.server";
import type { Database } from "../app/services/db/database.server";

declare module "react-router" {
  /**
   * What every loader and action gets as `context`: a RouterContextProvider (middleware is on) on which the
   * Express server sets the app's services (see server/app.ts), the migration React Router documents.
   */
  interface AppLoadContext {
    logger: Logger;
    config: Config;
    db: Database;
    deliveryWorker: DeliveryWorker;
    /** The address the request came from, for rate limits and abuse handling. */
    clientIp: string;
    /** From now on, no line logged about this request says where it came from (an anonymous form's). */
    keepClientOutOfLog: () => void;
    /** The Content-Security-Policy nonce of this response, for the inline scripts React Router writes. */
    cspNonce: string;
    /**
     * The site's content this request renders: the published version, or a preview's. Absent where there is no
     * server (the build's prerender renders the defaults): read it with siteContentOf(context).
     */
    siteContent?: SiteContent;
    /** The public page at `path` exactly as it would be served with `content` (the editor's preview). */
    renderSitePage: (path: string, content: SiteContent) => Promise<Response>;
    /** What middleware put in the context (the staff middleware: who is signed in). */
    get<T>(context: RouterContext<T>): T;
    set<C extends RouterContext>(context: C, value: C extends RouterContext<infer T> ? T : never): void;
  }

  interface RouterContextProvider extends AppLoadContext {}

  interface Future {
    v8_middleware: true;
  }
}
