import { createHash } from "node:crypto";
import { and, count, sql } from "drizzle-orm";
import { plural } from "~/content/plural";
import type { Config } from "~/services/config.server";
import { type Database, inTransaction, type Transaction } from "~/services/db/database.server";
import type { DeliveryChannel } from "~/services/db/schema.server";
import { deliveries, deliveryFailureAcknowledgements, submissions } from "~/services/db/schema.server";
import type { InboxAlert } from "./inbox-alert-banner";
import { inboxQuery } from "./inbox-filters";
import { notAcknowledged, stillFailed } from "./still-failed.server";
import { leadType, waitingLeadsWhere, waitingTime } from "./waiting-leads.server";

/** How a channel's count reads, texts and emails first since people wait on those. */
const CHANNEL_COUNTS: Record<DeliveryChannel, (count: number) => string> = {
  sms: (count) => `texts to ${plural(count, "person", "people")}`,
  email: (count) => `emails to ${plural(count, "person", "people")}`,
  webhook: (count) => plural(count, "webhook", "webhooks"),
  push: (count) => `push notifications to ${plural(count, "device", "devices")}`,
};

/** One failed delivery, and whom it was for: a person's address or number, or a webhook's message. */
type Failure = { id: number; channel: DeliveryChannel; recipient: string };

/**
 * The failures the dashboard warns about: deliveries still failed (no later retry or replay of their message) that
 * no one has acknowledged. An email address is one person whatever its case.
 */
function unacknowledgedFailures(db: Database | Transaction): Promise<Failure[]> {
  return db
    .select({
      id: deliveries.id,
      channel: deliveries.channel,
      recipient: sql<string>`CASE WHEN deliveries.channel = 'webhook' THEN deliveries.webhook_id ELSE lower(deliveries.destination) END`,
    })
    .from(deliveries)
    .where(and(stillFailed, notAcknowledged))
    .orderBy(deliveries.id);
}

/** "texts to 1 person, emails to 2 people, 3 webhooks": each person once per channel, each webhook message once. */
function byChannel(failures: readonly Failure[]): string {
  return (Object.keys(CHANNEL_COUNTS) as DeliveryChannel[])
    .flatMap((channel) => {
      const recipients = new Set(failures.filter((failure) => failure.channel === channel).map((f) => f.recipient));
      return recipients.size > 0 ? [CHANNEL_COUNTS[channel](recipients.size)] : [];
    })
    .join(", ");
}

/**
 * Names the very failures an alert showed, whatever their number: the Acknowledge form posts it back, and only
 * the failures it names are acknowledged, never one that came in after the page was loaded.
 */
function failuresSeen(failures: readonly Failure[]): string {
  return createHash("sha256")
    .update(failures.map((failure) => failure.id).join(","))
    .digest("base64url");
}

export type AcknowledgeOutcome = "acknowledged" | "changed" | "nothing";

/**
 * Acknowledges, for a staff user, the failures the dashboard showed them (`seen`, from the alert). When the failures
 * are no longer those (one more failed, or a replay ended one), nothing is acknowledged: the page shows them anew.
 */
export function acknowledgeFailedDeliveries(
  db: Database,
  request: { staffUserId: number; username: string; seen: string },
): Promise<AcknowledgeOutcome> {
  return inTransaction(db, async (tx) => {
    const failures = await unacknowledgedFailures(tx);
    if (failures.length === 0) return "nothing";
    if (failuresSeen(failures) !== request.seen) return "changed";
    await tx
      .insert(deliveryFailureAcknowledgements)
      .values(
        failures.map((failure) => ({
          deliveryId: failure.id,
          staffUserId: request.staffUserId,
          username: request.username,
        })),
      )
      .onConflictDoNothing();
    return "acknowledged";
  });
}

/**
 * What the dashboard warns about: deliveries that gave up and were neither sent since nor acknowledged (webhooks,
 * emails and texts that never arrived), and estimate requests still new, not spam, after INBOX_ALERT_AFTER.
 */
export async function loadInboxAlerts(db: Database, config: Pick<Config, "INBOX_ALERT_AFTER">) {
  const leads = leadType();
  const [failures, [waiting]] = await Promise.all([
    unacknowledgedFailures(db),
    db.select({ count: count() }).from(submissions).where(waitingLeadsWhere(config.INBOX_ALERT_AFTER, new Date())),
  ]);
  const alerts: InboxAlert[] = [];
  if (failures.length > 0) {
    alerts.push({
      message: `Failed deliveries: ${byChannel(failures)}.`,
      linkText: "See the submissions with a failed delivery",
      href: `/admin/inbox${inboxQuery({ delivery: "failed" })}`,
      acknowledge: failuresSeen(failures),
    });
  }
  const waitingCount = waiting?.count ?? 0;
  if (waitingCount > 0) {
    alerts.push({
      message: `${plural(waitingCount, "new estimate request has", "new estimate requests have")} waited more than ${waitingTime(config.INBOX_ALERT_AFTER)}.`,
      linkText: "See the new estimate requests",
      href: `/admin/inbox${inboxQuery({ type: leads.type, status: leads.newStatus })}`,
    });
  }
  return alerts;
}
