import { and, asc, eq } from "drizzle-orm";
import { plural } from "~/content/plural";
import { submissionTypes } from "~/features/submission-types.server";
import { type OverSendingLimit, overSendingLimit, type SendingLimits } from "~/outbox/sender-limits.server";
import { reachedDailyLimit } from "~/outbox/submission-store.server";
import { currentWebhookUrl, type WebhookUrls } from "~/outbox/targets.server";
import { type Database, inTransaction } from "~/services/db/database.server";
import { type DeliveryStatus, deliveries, type StaffRole } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { lockSubmission, recordSubmissionEvent } from "./submission-changes.server";
import { WorkflowInputError } from "./workflow-error";

/** A delivery that has ended, one way or the other, may be sent again; one still under way or held may not. */
export const REPLAYABLE_STATUSES: readonly DeliveryStatus[] = ["failed", "delivered"];

/**
 * The forms whose sender chooses the people their emails and texts go to (a team message): the messages a
 * replayer's replays are counted with.
 */
const personalMessageTypes = submissionTypes
  .filter((form) => form.deliveries.some((delivery) => delivery.channel === "personal"))
  .map((form) => form.type);

/** How long after a replay a delivered message may be sent again. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** One send of a message: the first, or a replay (a row with the same webhook-id). */
export type MessageSend = { id: number; status: DeliveryStatus; createdAt: Date };

/**
 * Whether, and how, a person may send a message again, from every send of it: anyone when it failed; when it
 * reached its recipient, an admin only, after confirming, and once a day (a day after its last replay).
 */
export type ReplayRule =
  | { kind: "no" }
  | { kind: "failed" }
  | { kind: "delivered-admins-only" }
  | { kind: "delivered-confirm" }
  | { kind: "delivered-again-after"; at: Date };

export function replayRule(sends: readonly MessageSend[], role: StaffRole, now = new Date()): ReplayRule {
  const byAge = [...sends].sort((one, other) => one.id - other.id);
  const newest = byAge.at(-1);
  if (!newest || !REPLAYABLE_STATUSES.includes(newest.status)) return { kind: "no" };
  if (!byAge.some((send) => send.status === "delivered")) return { kind: "failed" };
  if (role !== "admin") return { kind: "delivered-admins-only" };
  const lastReplay = byAge.length > 1 ? newest.createdAt : undefined;
  const again = lastReplay && new Date(lastReplay.getTime() + DAY_MS);
  return again && again > now ? { kind: "delivered-again-after", at: again } : { kind: "delivered-confirm" };
}

/**
 * Where a replay of a delivery goes: for a webhook, the URL configured for its target now (undefined when it
 * is unset); an email or a text goes to the same person again.
 */
export function replayDestination(
  delivery: { channel: string; target: string; destination: string },
  urls: WebhookUrls,
): string | undefined {
  return delivery.channel === "webhook" ? currentWebhookUrl(urls, delivery.target) : delivery.destination;
}

/** Why a replay of a message in this state is refused, or undefined when it may go. */
function refusal(rule: ReplayRule, confirmed: boolean): WorkflowInputError | undefined {
  switch (rule.kind) {
    case "no":
      return new WorkflowInputError("A replay of this delivery is already under way.", 409);
    case "failed":
      return undefined;
    case "delivered-admins-only":
      return new WorkflowInputError("This was delivered, so only an admin can send it again. Nothing was sent.", 403);
    case "delivered-again-after":
      return new WorkflowInputError(
        `This was sent again less than a day ago. It can be sent again after ${formatStaffTime(rule.at)}. Nothing was sent.`,
        409,
      );
    case "delivered-confirm":
      return confirmed
        ? undefined
        : new WorkflowInputError(
            "This was delivered: confirm that it should be sent again (once a day at most). Nothing was sent.",
          );
  }
}

/** Words for a replay refused by the replayer's own limits (they count every replay of theirs). */
function overLimitInWords(over: OverSendingLimit, config: SendingLimits) {
  return over.limit === "messages-per-minute"
    ? `You have sent ${plural(config.TEAM_MESSAGES_PER_MINUTE, "message", "messages")} in the last minute, replays included, the most allowed. Please wait a minute and replay it again. Nothing was sent.`
    : `You have sent ${over.textsSent} of the ${config.TEAM_TEXTS_PER_HOUR} texts allowed in an hour, replays included. Please wait and replay it later. Nothing was sent.`;
}

export type ReplayRequest = {
  submissionId: number;
  deliveryId: number;
  replayer: { id: number; role: StaffRole };
  /** The person confirmed sending a delivered message again (the second press). */
  confirmed?: boolean;
};

/**
 * Sends a delivery again as a new delivery row: same target, body, webhook-id and submission reference, so a
 * receiver that saw it before can tell it is the same message, to where the target points now. A failed message
 * is replayed by anyone who may read it; a delivered one by an admin who confirmed, once a day. An email or a
 * text replayed counts in the replayer's own sending limits. The caller wakes the worker.
 */
export async function replayDelivery(
  db: Database,
  request: ReplayRequest,
  config: WebhookUrls & SendingLimits,
): Promise<{ deliveryId: number; destination: string }> {
  return inTransaction(db, async (tx) => {
    const submission = await lockSubmission(tx, request.submissionId);
    const [original] = await tx
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.id, request.deliveryId), eq(deliveries.submissionId, submission.id)));
    if (!original) throw new WorkflowInputError("That delivery does not belong to this submission.");
    if (submission.isSpam)
      throw new WorkflowInputError("This submission is marked as spam: mark it as not spam first.");
    if (!REPLAYABLE_STATUSES.includes(original.status)) {
      throw new WorkflowInputError("Only a failed or delivered delivery can be replayed.");
    }
    const sends = await tx
      .select({ id: deliveries.id, status: deliveries.status, createdAt: deliveries.createdAt })
      .from(deliveries)
      .where(and(eq(deliveries.submissionId, submission.id), eq(deliveries.webhookId, original.webhookId)))
      .orderBy(asc(deliveries.id));
    const refused = refusal(replayRule(sends, request.replayer.role), request.confirmed === true);
    if (refused) throw refused;
    const destination = replayDestination(original, config);
    if (destination === undefined) {
      throw new WorkflowInputError(`${original.target} is not set, so there is nowhere to replay this to.`);
    }
    const definition = submissionTypes
      .find((form) => form.type === submission.type)
      ?.deliveries.find(
        (delivery) =>
          delivery.channel === original.channel && "target" in delivery && delivery.target === original.target,
      );
    const limit = definition?.channel === "email" ? definition.dailyLimitPerRecipient : undefined;
    if (limit !== undefined && (await reachedDailyLimit(tx, original.target, destination, limit))) {
      throw new WorkflowInputError(
        `${destination} has had ${limit} of these emails in the last 24 hours, the most one address gets: replay it tomorrow.`,
      );
    }
    if (original.channel === "email" || original.channel === "sms") {
      const over = await overSendingLimit(tx, config, personalMessageTypes, {
        userId: request.replayer.id,
        newTexts: original.channel === "sms" ? 1 : 0,
      });
      if (over) throw new WorkflowInputError(overLimitInWords(over, config), 429);
    }
    const [replay] = await tx
      .insert(deliveries)
      .values({
        submissionId: submission.id,
        webhookId: original.webhookId,
        reference: original.reference,
        channel: original.channel,
        target: original.target,
        destination,
        body: original.body,
        bodyFormat: original.bodyFormat,
        status: "pending",
        replayedById: request.replayer.id,
      })
      .returning({ id: deliveries.id });
    if (!replay) throw new Error("the replay was not stored");
    await recordSubmissionEvent(tx, {
      submissionId: submission.id,
      actorId: request.replayer.id,
      kind: "replay",
      fromValue: original.target,
      toValue: original.webhookId,
    });
    return { deliveryId: replay.id, destination };
  });
}
