import { asc, eq, inArray } from "drizzle-orm";
import { submissionTypes } from "~/features/submission-types.server";
import type { StoredDelivery } from "~/forms/definition";
import type { WebhookUrls } from "~/outbox/targets.server";
import type { Database } from "~/services/db/database.server";
import { deliveries, deliveryAttempts, type StaffRole } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { deliveryInWords, recipientInWords, unsetTargetInWords } from "./delivery-words.server";
import { type ReplayRule, replayDestination, replayRule } from "./replay-delivery.server";

/** A lead's deliveries, oldest first, with every attempt at each, as the database holds them. */
export async function loadDeliveryHistory(db: Database, submissionId: number) {
  const sends = await db
    .select({
      id: deliveries.id,
      webhookId: deliveries.webhookId,
      channel: deliveries.channel,
      target: deliveries.target,
      destination: deliveries.destination,
      status: deliveries.status,
      attemptCount: deliveries.attemptCount,
      nextAttemptAt: deliveries.nextAttemptAt,
      lastError: deliveries.lastError,
      deliveredAt: deliveries.deliveredAt,
      createdAt: deliveries.createdAt,
    })
    .from(deliveries)
    .where(eq(deliveries.submissionId, submissionId))
    .orderBy(asc(deliveries.id));
  const attempts =
    sends.length === 0
      ? []
      : await db
          .select()
          .from(deliveryAttempts)
          .where(
            inArray(
              deliveryAttempts.deliveryId,
              sends.map((delivery) => delivery.id),
            ),
          )
          .orderBy(asc(deliveryAttempts.startedAt), asc(deliveryAttempts.id));
  return { sends, attempts };
}

type DeliveryHistory = Awaited<ReturnType<typeof loadDeliveryHistory>>;

/** What the page is told of the lead it shows, and of who is looking. */
type Viewing = { isSpam: boolean; urls: WebhookUrls; role: StaffRole };

/**
 * Each delivery as the page shows it: in words, with what may be done to send it again, and the details admins
 * see. Times as staff read them, formatted here (see formatStaffTime).
 */
export function deliveriesInWords({ sends, attempts }: DeliveryHistory, { isSpam, urls, role }: Viewing) {
  return sends.map(({ nextAttemptAt, deliveredAt, createdAt, ...delivery }) => {
    const nextTry = formatStaffTime(nextAttemptAt);
    const delivered = deliveredAt && formatStaffTime(deliveredAt);
    const replayTo = replayDestination(delivery, urls) ?? null;
    // A message is sent again from its newest send only, by the rule over all its sends.
    const sendsOfMessage = sends.filter((row) => row.webhookId === delivery.webhookId);
    const newest = sendsOfMessage.every((row) => row.id <= delivery.id);
    const rule = isSpam || !newest ? { kind: "no" as const } : replayRule(sendsOfMessage, role);
    const details = {
      ...delivery,
      replayTo,
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map(({ startedAt, ...attempt }) => ({ ...attempt, started: formatStaffTime(startedAt) })),
    };
    return {
      id: delivery.id,
      inWords: deliveryInWords({ ...delivery, nextTry, delivered, isSpam }),
      recipient: recipientInWords(delivery.channel, delivery.target),
      status: delivery.status,
      replay: replayControl(rule, replayTo),
      /** When a delivered message may be sent again, after a replay less than a day ago. */
      replayAgainAfter: rule.kind === "delivered-again-after" ? formatStaffTime(rule.at) : null,
      /** The setting, address, id and every attempt: for admins only (the page's loader removes them for staff). */
      details: details as typeof details | null,
    };
  });
}

/**
 * What a delivery's page offers to send it again: Replay (a failed message), Send again with a confirmation (a
 * delivered one, to an admin), when it may be sent again, that its webhook must be set up first, or nothing.
 */
function replayControl(rule: ReplayRule, replayTo: string | null) {
  if (rule.kind === "no" || rule.kind === "delivered-admins-only") return "no" as const;
  if (replayTo === null) return "target-unset" as const;
  if (rule.kind === "failed") return "possible" as const;
  return rule.kind === "delivered-confirm" ? ("confirm" as const) : ("again-after" as const);
}

/** The webhooks the type's form sends to whose settings are not set: nothing of it went there. */
function unsetWebhookTargets(type: string, urls: WebhookUrls, sentTo: readonly string[]): string[] {
  const definition = submissionTypes.find((candidate) => candidate.type === type);
  return (definition?.deliveries ?? []).flatMap((delivery) =>
    delivery.channel === "webhook" && !urls[delivery.target] && !sentTo.includes(delivery.target)
      ? [delivery.target]
      : [],
  );
}

/**
 * What did not go, in words: the form's own account of its deliveries where it has one and it tells of something
 * not sent (a team message whose email and texts are not set up), else each webhook of its form that is not set.
 */
export function notSentInWords(
  type: string,
  payload: Record<string, unknown>,
  stored: readonly StoredDelivery[],
  urls: WebhookUrls,
): string[] {
  const definition = submissionTypes.find((candidate) => candidate.type === type);
  const outcome = definition?.outcome?.({ payload, deliveries: stored });
  if (outcome && !outcome.sent) return [outcome.message];
  return unsetWebhookTargets(
    type,
    urls,
    stored.map((delivery) => delivery.target),
  ).map(unsetTargetInWords);
}
