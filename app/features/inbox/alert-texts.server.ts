import { and, eq, lt, ne, not, sql } from "drizzle-orm";
import { describeSubmissionType } from "~/features/submission-types.server";
import { newWebhookId } from "~/outbox/submission-store.server";
import type { Config } from "~/services/config.server";
import { type Database, inTransaction } from "~/services/db/database.server";
import { alertTexts, type DeliveryChannel, deliveries, submissions } from "~/services/db/schema.server";
import type { JobServices } from "~/services/periodic-job.server";
import { notAcknowledged, stillFailed } from "./still-failed.server";

/** The delivery target of alert texts; their own failures are not texted again. */
export const ALERT_SMS_TARGET = "ALERT_SMS_TO";
/** At most this many alerts are texted per run, so turning ALERT_SMS_TO on with a backlog is not a flood. */
const ALERTS_PER_RUN = 20;
const MINUTE_MS = 60_000;

/** The channel that failed, as the on-call text names it. */
const CHANNEL_IN_TEXT: Record<DeliveryChannel, string> = {
  email: "an email",
  sms: "a text",
  webhook: "a webhook",
  push: "a push notification",
};

type AlertTextConfig = Pick<Config, "ALERT_SMS_TO" | "INBOX_ALERT_AFTER" | "SITE_URL" | "TWILIO_ACCOUNT_SID">;

type DueAlert = { key: string; submissionId: number; reference: string; text: (link: string) => string };

const alertKey = (kind: string, id: unknown) => sql<string>`${kind}::text || ':' || ${id}`;
const notYetTexted = (key: ReturnType<typeof alertKey>) =>
  sql`NOT EXISTS (SELECT 1 FROM ${alertTexts} WHERE ${alertTexts.key} = ${key})`;

function hoursOrMinutes(milliseconds: number): string {
  const hours = milliseconds / 3_600_000;
  if (hours >= 1 && Number.isInteger(hours)) return `${hours} ${hours === 1 ? "hour" : "hours"}`;
  const minutes = Math.round(milliseconds / MINUTE_MS);
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/**
 * The dashboard's alerts, one per thing to act on, that have not been texted yet. A failure is keyed by its
 * message (webhook-id), not its row: a retry or a replay is a new row of the same message, and failing again it
 * is the same failure, not a new text.
 */
async function dueAlerts(db: Database, config: AlertTextConfig): Promise<DueAlert[]> {
  const failedKey = alertKey("failed-delivery", deliveries.webhookId);
  const failed = await db
    .select({
      key: failedKey,
      submissionId: submissions.id,
      reference: submissions.reference,
      channel: deliveries.channel,
      target: deliveries.target,
    })
    .from(deliveries)
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .where(and(stillFailed, notAcknowledged, ne(deliveries.target, ALERT_SMS_TARGET), notYetTexted(failedKey)))
    .orderBy(deliveries.id)
    .limit(ALERTS_PER_RUN);
  const estimate = describeSubmissionType("estimate");
  const waitingKey = alertKey("estimate-waiting", submissions.id);
  const waiting = await db
    .select({ key: waitingKey, submissionId: submissions.id, reference: submissions.reference })
    .from(submissions)
    .where(
      and(
        eq(submissions.type, estimate.type),
        eq(submissions.status, estimate.statuses[0]),
        not(submissions.isSpam),
        lt(submissions.createdAt, new Date(Date.now() - config.INBOX_ALERT_AFTER)),
        notYetTexted(waitingKey),
      ),
    )
    .orderBy(submissions.id)
    .limit(ALERTS_PER_RUN);
  const waitedFor = hoursOrMinutes(config.INBOX_ALERT_AFTER);
  return [
    ...failed.map((row) => ({
      ...row,
      text: (link: string) =>
        `Alert: ${CHANNEL_IN_TEXT[row.channel]} for ${row.reference} failed (${row.target}). ${link}`,
    })),
    ...waiting.map((row) => ({
      ...row,
      text: (link: string) =>
        `Alert: estimate request ${row.reference} has waited more than ${waitedFor} unhandled. ${link}`,
    })),
  ].slice(0, ALERTS_PER_RUN);
}

/**
 * Texts each dashboard alert not yet texted to ALERT_SMS_TO, through the outbox: the alert's key and its text
 * delivery are stored in one transaction, and the key is unique, so an alert is texted once however many
 * instances run this at once and however often. Returns the keys it queued.
 */
export async function queueAlertTexts(db: Database, config: AlertTextConfig): Promise<string[]> {
  const to = config.ALERT_SMS_TO;
  if (!to || !config.TWILIO_ACCOUNT_SID) return [];
  const queued: string[] = [];
  for (const alert of await dueAlerts(db, config)) {
    const link = `${config.SITE_URL}/admin/inbox/${alert.submissionId}`;
    const stored = await inTransaction(db, async (tx) => {
      const [claimed] = await tx
        .insert(alertTexts)
        .values({ key: alert.key })
        .onConflictDoNothing()
        .returning({ key: alertTexts.key });
      if (!claimed) return false;
      const [delivery] = await tx
        .insert(deliveries)
        .values({
          submissionId: alert.submissionId,
          webhookId: newWebhookId(),
          reference: alert.reference,
          channel: "sms",
          target: ALERT_SMS_TARGET,
          destination: to,
          body: { text: alert.text(link) },
        })
        .returning({ id: deliveries.id });
      await tx.update(alertTexts).set({ deliveryId: delivery?.id }).where(eq(alertTexts.key, alert.key));
      return true;
    });
    if (stored) queued.push(alert.key);
  }
  return queued;
}

/** Looks for new alerts (every minute, the inbox's periodic job) and wakes the worker for their texts. */
export async function runAlertTexts({ db, config, logger, wakeDeliveryWorker }: JobServices): Promise<void> {
  const queued = await queueAlertTexts(db, config);
  if (queued.length === 0) return;
  logger.info({ alerts: queued }, "dashboard alerts texted to ALERT_SMS_TO");
  wakeDeliveryWorker();
}
