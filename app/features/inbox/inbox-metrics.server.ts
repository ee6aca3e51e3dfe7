import { and, count, min } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import type { Database } from "~/services/db/database.server";
import { deliveries, submissions } from "~/services/db/schema.server";
import { notAcknowledged, stillFailed } from "./still-failed.server";
import { stillNewLeadsWhere } from "./waiting-leads.server";

/**
 * What the dashboard warns about, for Prometheus: leads no one has taken up, and deliveries that gave up and
 * no one acknowledged. Read from the database when scraped, so the same on every instance (take max()).
 */
export function inboxMetrics(db: Database): Registry {
  const registry = new Registry();
  const isWaiting = stillNewLeadsWhere();
  const waiting = async () => {
    const [row] = await db
      .select({ count: count(), oldest: min(submissions.createdAt) })
      .from(submissions)
      .where(isWaiting);
    return row;
  };
  new Gauge({
    name: "tce_leads_waiting",
    help: "Estimate requests still New (not spam): leads no one has taken up yet.",
    registers: [registry],
    async collect() {
      this.set((await waiting())?.count ?? 0);
    },
  });
  new Gauge({
    name: "tce_leads_waiting_oldest_age_seconds",
    help: "Age of the oldest estimate request still New (not spam); 0 when none.",
    registers: [registry],
    async collect() {
      const oldest = (await waiting())?.oldest;
      this.set(oldest ? Math.max(0, (Date.now() - new Date(oldest).getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: "tce_deliveries_failed_unacknowledged",
    help: "Deliveries that gave up, were not sent since, and no one acknowledged: the dashboard's failed deliveries.",
    registers: [registry],
    async collect() {
      const [row] = await db.select({ count: count() }).from(deliveries).where(and(stillFailed, notAcknowledged));
      this.set(row?.count ?? 0);
    },
  });
  return registry;
}
