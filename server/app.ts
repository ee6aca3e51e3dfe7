import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import type { DeliveryWorker } from "../app/features/deliveries/worker.server";
import type { Config } from "../app/server/config.server";
import type { DatabaseConnection } from "../app/server/db/database.server";
import { countPendingMigrations } from "../app/server/db/migrations.server";
import { nonceContentSecurityPolicy } from "./content-security-policy";
import { closeWhenBodyUnread, limitRequestBodies, requireSameOrigin } from "./request-guards";
import { findPrerenderedPages, mountClientFiles, redirectTrailingSlash, servePrerenderedPages } from "./static-files";

export type AppDependencies = {
  config: Config;
  logger: Logger;
  database: DatabaseConnection;
  deliveryWorker: DeliveryWorker;
  buildDir: string;
  migrationsFolder: string;
  serverBuild: ServerBuild;
};

export function createApp(dependencies: AppDependencies) {
  const { config, logger, database, deliveryWorker, buildDir, migrationsFolder, serverBuild } = dependencies;
  const clientDir = path.join(buildDir, "client");
  const app = express();
  app.disable("x-powered-by");

  app.use(
    pinoHttp({ logger, customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info") }),
  );
  app.use(
    helmet({
      // Set per prerendered page from its inline scripts' hashes, and per rendered page with a nonce (below).
      contentSecurityPolicy: false,
      strictTransportSecurity: config.NODE_ENV === "production" ? { maxAge: 31_536_000 } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    next();
  });
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    try {
      const pending = await countPendingMigrations(database.db, migrationsFolder);
      if (pending > 0) {
        res.status(503).json({ status: "not ready", reason: `${pending} migration(s) not applied` });
        return;
      }
      res.json({ status: "ready" });
    } catch (error) {
      logger.warn({ err: error }, "readiness check failed");
      res.status(503).json({ status: "not ready", reason: "database unavailable" });
    }
  });

  app.use(closeWhenBodyUnread);
  app.use(requireSameOrigin(config.SITE_URL));
  app.use(limitRequestBodies);
  app.use(redirectTrailingSlash);
  app.use(servePrerenderedPages(findPrerenderedPages(clientDir)));
  mountClientFiles(app, clientDir);
  app.all(
    "/{*path}",
    nonceContentSecurityPolicy,
    createRequestHandler({
      build: serverBuild,
      mode: config.NODE_ENV,
      getLoadContext: (req, res) => ({
        logger: req.log,
        config,
        db: database.db,
        deliveryWorker,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        cspNonce: String(res.locals.cspNonce),
      }),
    }),
  );

  const handleError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
    req.log.error({ err: error }, "request failed");
    if (res.headersSent) return;
    res
      .status(status)
      .type("text/plain")
      .send(status === 500 ? "Something went wrong on our side." : "Bad request.");
  };
  app.use(handleError);
  return app;
}
