import type { RequestHandler } from "express";
import { inboxMetrics } from "../app/features/inbox/inbox-metrics.server";
import type { Config } from "../app/services/config.server";
import type { Database } from "../app/services/db/database.server";
import { createMetricsScraper } from "../app/services/metrics/metrics.server";

/** `GET /metrics` for scrapers holding METRICS_TOKEN; anyone else goes on to the site's 404. */
export function metricsRoute(
  db: Database,
  config: Pick<Config, "METRICS_TOKEN" | "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT">,
): RequestHandler {
  const scrapeMetrics = createMetricsScraper(db, config, [inboxMetrics(db)]);
  return async (req, res, next) => {
    const scrape = await scrapeMetrics(req.get("authorization"));
    if (!scrape) return next();
    res.type(scrape.contentType).set("cache-control", "no-store").send(scrape.body);
  };
}
