import type { RequestListener } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import type pg from "pg";
import type { Logger } from "pino";
import proxyaddr from "proxy-addr";
import { type AppLoadContext, RouterContextProvider, type ServerBuild } from "react-router";
import type { SiteContent } from "../app/content/site-content";
import { submissionTypes } from "../app/features/submission-types.server";
import { RESUMABLE_UPLOADS_PATH } from "../app/forms/resumable-uploads";
import type { DeliveryWorker } from "../app/outbox/worker.server";
import type { Config } from "../app/services/config.server";
import type { DatabaseConnection } from "../app/services/db/database.server";
import { countPendingMigrations } from "../app/services/db/migrations.server";
import { currentSiteContent } from "../app/services/site-content/site-content-cache.server";
import { writeSitePhotoFiles } from "../app/services/site-photos/site-photo-files.server";
import { accessLog, giveRequestsALogger, keepClientOutOfLog } from "./access-log";
import { inlineStyleSourcesOf, nonceContentSecurityPolicy } from "./content-security-policy";
import { metricsRoute } from "./metrics-route";
import {
  answerOptions,
  isMalformedPath,
  limitRequestBodies,
  lingerWhenBodyUnread,
  requireSameOrigin,
} from "./request-guards";
import { measureRequests } from "./request-metrics";
import { resumableUploads } from "./resumable-uploads";
import { securityHeaderSets, setSecurityHeaders, staffAnswersNotStored } from "./security-headers";
import { serverAnsweredRoutes } from "./server-answered-routes";
import { type SitePagePublisher, sitePagePublisher, sitePageRenderer } from "./site-pages";
import { loadStaticFiles, mountLargeClientFiles, redirectToCanonicalPath, staticFileAnswerer } from "./static-files";

export type AppDependencies = {
  config: Config;
  logger: Logger;
  database: DatabaseConnection;
  deliveryWorker: DeliveryWorker;
  buildDir: string;
  migrationsFolder: string;
  serverBuild: ServerBuild;
  /** False while the app's own PostgreSQL process is gone (embedded server only). */
  isDatabaseProcessUp?: () => boolean;
};

/**
 * The Express app behind the static fast path: health, metrics, the request guards, uploads and the pages; and
 * what serves each published version of the site's content as the static pages.
 */
export function createApp(dependencies: AppDependencies): RequestListener & { sitePages: SitePagePublisher } {
  const { config, logger, database, buildDir, serverBuild } = dependencies;
  const app = express();
  app.disable("x-powered-by");
  // req.ip is the client's address only when the hops in front of us are known; by default nothing is believed.
  app.set("trust proxy", config.TRUST_PROXY);
  giveRequestsALogger(app, logger);

  const headers = securityHeaderSets(config);
  app.use(setSecurityHeaders(headers));
  // The client build's files are answered before Express (see the end): they take no body, need no origin
  // check, and log themselves; the rest would only add to each.
  const inlineStyleSources = inlineStyleSourcesOf(serverBuild);
  const trustedProxies: Parameters<typeof proxyaddr>[1] = app.get("trust proxy fn");
  const staticFiles = loadStaticFiles(path.join(buildDir, "client"), inlineStyleSources);
  const answerStaticFile = staticFileAnswerer(staticFiles, {
    logger,
    securityHeaders: headers,
    clientAddress: (req) => proxyaddr(req, trustedProxies),
  });
  app.use(accessLog(logger));
  app.use(measureRequests(serverBuild));
  app.use(staffAnswersNotStored);

  app.get("/metrics", metricsRoute(database.db, config));
  app.get("/healthz", answerHealth(dependencies.isDatabaseProcessUp ?? (() => true)));
  app.get("/readyz", answerReadiness(database, dependencies.migrationsFolder, logger));

  app.use(answerOptions);
  app.use(lingerWhenBodyUnread);
  app.use(requireSameOrigin(config.SITE_URL));
  // Before the body limits: a photo's bytes go up in PATCH requests that are no form, capped per upload by tus.
  app.all(
    [RESUMABLE_UPLOADS_PATH, `${RESUMABLE_UPLOADS_PATH}/:id`],
    resumableUploads({ config, db: database.db, forms: submissionTypes }),
  );
  app.use(limitRequestBodies);
  const sitePageServices = { serverBuild, contextWith: siteContentContextMaker(dependencies) };
  const renderSitePage = sitePageRenderer(sitePageServices, inlineStyleSources);
  mountPages(app, dependencies, inlineStyleSources, renderSitePage);
  app.use(answerError);
  const sitePages = sitePagePublisher({
    services: sitePageServices,
    db: database.db,
    dataDir: config.DATA_DIR,
    files: staticFiles,
    styleSources: inlineStyleSources,
    logger,
    writeSitePhotoFiles,
  });
  return Object.assign(
    (req: Parameters<RequestListener>[0], res: Parameters<RequestListener>[1]) => {
      if (!answerStaticFile(req, res)) app(req, res);
    },
    { sitePages },
  );
}

/** The pages: rendered by React Router, or answered by their loader or action directly, or a large client file. */
function mountPages(
  app: Express,
  dependencies: AppDependencies,
  inlineStyleSources: readonly string[],
  renderSitePage: AppLoadContext["renderSitePage"],
): void {
  const { serverBuild, buildDir } = dependencies;
  const contentSecurityPolicy = nonceContentSecurityPolicy(inlineStyleSources);
  const loadContextOf = loadContextMaker(dependencies, renderSitePage);
  const renderWithReactRouter = createRequestHandler({
    build: serverBuild,
    // Always production: in any other mode React Router sends an error's message and stack (a failed
    // query's SQL and parameters among them) to the browser. The log keeps them.
    mode: "production",
    getLoadContext: loadContextOf,
  });
  // A path that cannot be decoded (`/%E0%A4%A`) gets the site's own error page with 400, not the static
  // file server's plain-text refusal. React Router matches no page for it, so the 404 it would answer is
  // turned into the 400 it is.
  app.use((req, res, next) => {
    if (!isMalformedPath(req.path)) return next();
    const setStatus = res.status.bind(res);
    res.status = () => setStatus(400);
    contentSecurityPolicy(req, res, () => renderWithReactRouter(req, res, next));
  });
  app.use(redirectToCanonicalPath);
  app.use(serverAnsweredRoutes(serverBuild, loadContextOf));
  mountLargeClientFiles(app, path.join(buildDir, "client"));
  const compressRenderedPage = compression(RENDERED_PAGE_COMPRESSION);
  app.all(
    "/{*path}",
    // Only rendered pages are worth compressing per request; an action's answer is a few hundred bytes, and
    // the files above are compressed at build time.
    (req, res, next) => (req.method === "GET" ? compressRenderedPage(req, res, next) : next()),
    contentSecurityPolicy,
    renderWithReactRouter,
  );
}

/**
 * Pages rendered per request are compressed quickly rather than small, on the thread that answers pages: the
 * sign-in page (57 KB) takes 1.5 ms at gzip level 1 against 3.5 ms at the default 6, and 1.3 ms at brotli
 * quality 2 against 2.8 ms at compression's default 4, for 14 and 12.5 KB against 12 KB: still within the first
 * round trip (ten packets, 14.6 KB). The public pages are compressed at build time, at the highest levels.
 */
const RENDERED_PAGE_COMPRESSION = {
  level: 1,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } },
} as const satisfies compression.CompressionOptions;

/** What a loader or action is given as its context (load-context.d.ts). */
function loadContextMaker(
  { config, database, deliveryWorker }: AppDependencies,
  renderSitePage: AppLoadContext["renderSitePage"],
) {
  return (req: express.Request, res: express.Response) => {
    const context = new RouterContextProvider();
    // A getter, since most requests never log and req.log makes its child logger when first asked for.
    Object.defineProperty(context, "logger", { get: () => req.log });
    return Object.assign(context, {
      keepClientOutOfLog: () => keepClientOutOfLog(req),
      config,
      db: database.db,
      deliveryWorker,
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      cspNonce: String(res.locals.cspNonce),
      siteContent: currentSiteContent().content,
      renderSitePage,
    });
  };
}

/**
 * The context of a public page rendered outside any request, with `siteContent` (a publish, a preview): as the
 * build's prerender renders it, without a nonce (its scripts are allowed by their hashes).
 */
function siteContentContextMaker({ config, database, deliveryWorker, logger }: AppDependencies) {
  return (siteContent: SiteContent): RouterContextProvider =>
    Object.assign(new RouterContextProvider(), {
      logger,
      config,
      db: database.db,
      deliveryWorker,
      clientIp: "127.0.0.1",
      keepClientOutOfLog: () => undefined,
      siteContent,
    });
}

const answerError: ErrorRequestHandler = (error, req, res, _next) => {
  const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
  req.log.error({ err: error }, "request failed");
  if (res.headersSent) return;
  const message = status === 500 ? "Something went wrong on our side." : "Bad request.";
  res.status(status).type("text/plain").send(message);
};

/** `/healthz`: restart this process when it fails. */
function answerHealth(isDatabaseProcessUp: () => boolean): RequestHandler {
  return (_req, res) => {
    if (isDatabaseProcessUp()) res.json({ status: "ok" });
    else res.status(503).json({ status: "unhealthy", reason: "the embedded PostgreSQL server is down" });
  };
}

/** `/readyz`: send this process traffic only when it answers 200. */
function answerReadiness(database: DatabaseConnection, migrationsFolder: string, logger: Logger): RequestHandler {
  return async (_req, res) => {
    const notReady = (reason: string) => void res.status(503).json({ status: "not ready", reason });
    try {
      const pending = await countPendingMigrations(database.db, migrationsFolder);
      if (pending > 0) return notReady(`${pending} migration(s) not applied`);
    } catch (error) {
      logger.warn({ err: error }, "readiness check failed");
      return notReady("database unavailable");
    }
    try {
      await probeWrite(database.pool);
    } catch (error) {
      logger.warn({ err: error }, "readiness write probe failed");
      return notReady("database refuses writes");
    }
    res.json({ status: "ready" });
  };
}

/**
 * Ready means able to store a submission, not just to answer a SELECT: a full disk, or a server that turned
 * read-only (a failover to a standby), still answers reads. The probe writes a row into a temporary table,
 * which makes PostgreSQL grow a file as a new submission would, and rolls it all back.
 */
async function probeWrite(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let failure: unknown;
  try {
    await client.query("BEGIN");
    await client.query("CREATE TEMPORARY TABLE readiness_probe (written integer) ON COMMIT DROP");
    await client.query("INSERT INTO readiness_probe VALUES (1)");
  } catch (error) {
    failure = error;
  } finally {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release(failure instanceof Error ? failure : undefined);
  }
  if (failure) throw failure;
}
