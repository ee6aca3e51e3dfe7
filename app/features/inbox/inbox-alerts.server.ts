import { and, count, eq, lt, not } from "drizzle-orm";
import type { Config } from "~/server/config.server";
import type { Database } from "~/server/db/database.server";
import type { DeliveryChannel } from "~/server/db/schema.server";
import { deliveries, submissions } from "~/server/db/schema.server";
import { describeSubmissionType } from "~/submission-types";
import type { InboxAlert } from "./inbox-alert-banner";
import { inboxQuery } from "./inbox-filters";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const CHANNEL_NAMES: Record<DeliveryChannel, [one: string, many: string]> = {
  sms: ["text", "texts"],
  email: ["email", "emails"],
  webhook: ["webhook", "webhooks"],
};

/** "1 text, 2 emails": the failed deliveries by channel, texts and emails first since people wait on those. */
function byChannel(counts: ReadonlyArray<{ channel: DeliveryChannel; count: number }>): string {
  return (Object.keys(CHANNEL_NAMES) as DeliveryChannel[])
    .flatMap((channel) => {
      const found = counts.find((row) => row.channel === channel)?.count ?? 0;
      return found > 0 ? [plural(found, ...CHANNEL_NAMES[channel])] : [];
    })
    .join(", ");
}

function waitingTime(milliseconds: number): string {
  const hours = milliseconds / 3_600_000;
  if (hours >= 1 && Number.isInteger(hours)) return plural(hours, "hour", "hours");
  return plural(Math.round(milliseconds / 60_000), "minute", "minutes");
}

/**
 * What the dashboard warns about: deliveries that gave up (webhooks, emails and texts that never arrived), and
 * estimate requests still new, not spam, after INBOX_ALERT_AFTER.
 */
export async function loadInboxAlerts(db: Database, config: Pick<Config, "INBOX_ALERT_AFTER">) {
  const estimate = describeSubmissionType("estimate");
  const newStatus = estimate.statuses[0];
  const [failed, [waiting]] = await Promise.all([
    db
      .select({ channel: deliveries.channel, count: count() })
      .from(deliveries)
      .where(eq(deliveries.status, "failed"))
      .groupBy(deliveries.channel),
    db
      .select({ count: count() })
      .from(submissions)
      .where(
        and(
          eq(submissions.type, estimate.type),
          eq(submissions.status, newStatus),
          not(submissions.isSpam),
          lt(submissions.createdAt, new Date(Date.now() - config.INBOX_ALERT_AFTER)),
        ),
      ),
  ]);
  const alerts: InboxAlert[] = [];
  const failedCount = failed.reduce((sum, row) => sum + row.count, 0);
  if (failedCount > 0) {
    alerts.push({
      message: `${plural(failedCount, "delivery has", "deliveries have")} failed: ${byChannel(failed)}.`,
      linkText: "See the submissions with a failed delivery",
      href: `/admin/inbox${inboxQuery({ delivery: "failed" })}`,
    });
  }
  const waitingCount = waiting?.count ?? 0;
  if (waitingCount > 0) {
    alerts.push({
      message: `${plural(waitingCount, "new estimate request has", "new estimate requests have")} waited more than ${waitingTime(config.INBOX_ALERT_AFTER)}.`,
      linkText: "See the new estimate requests",
      href: `/admin/inbox${inboxQuery({ type: estimate.type, status: newStatus })}`,
    });
  }
  return alerts;
}
