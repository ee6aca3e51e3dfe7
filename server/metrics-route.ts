import type { RequestHandler } from "express";
import type { Database } from "../app/server/db/database.server";
import { createMetricsScraper } from "../app/server/metrics/metrics.server";

/** `GET /metrics` for scrapers holding METRICS_TOKEN; anyone else goes on to the site's 404. */
export function metricsRoute(db: Database, token: string | undefined): RequestHandler {
  const scrapeMetrics = createMetricsScraper(db, token);
  return async (req, res, next) => {
    const scrape = await scrapeMetrics(req.get("authorization"));
    if (!scrape) return next();
    res.type(scrape.contentType).set("cache-control", "no-store").send(scrape.body);
  };
}
