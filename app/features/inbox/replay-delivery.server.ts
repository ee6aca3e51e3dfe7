import { and, eq, inArray } from "drizzle-orm";
import { submissionTypes } from "~/features/submission-types.server";
import { reachedDailyLimit } from "~/outbox/submission-store.server";
import { currentWebhookUrl, type WebhookUrls } from "~/outbox/targets.server";
import { type Database, inTransaction } from "~/server/db/database.server";
import { type DeliveryStatus, deliveries } from "~/server/db/schema.server";
import { lockSubmission, recordSubmissionEvent } from "./submission-changes.server";
import { WorkflowInputError } from "./workflow-error";

/** A delivery that has ended, one way or the other, may be sent again; one still under way or held may not. */
export const REPLAYABLE_STATUSES: readonly DeliveryStatus[] = ["failed", "delivered"];

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

/**
 * Sends a delivery again as a new delivery row: same target, body, webhook-id and submission reference, so a
 * receiver that saw it before can tell it is the same message, to where the target points now. The caller
 * wakes the worker.
 */
export async function replayDelivery(
  db: Database,
  request: { submissionId: number; deliveryId: number; actorId: number },
  urls: WebhookUrls,
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
    const [underWay] = await tx
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.submissionId, submission.id),
          eq(deliveries.webhookId, original.webhookId),
          inArray(deliveries.status, ["pending", "sending", "held"]),
        ),
      );
    if (underWay) throw new WorkflowInputError("A replay of this delivery is already under way.");
    const destination = replayDestination(original, urls);
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
      })
      .returning({ id: deliveries.id });
    if (!replay) throw new Error("the replay was not stored");
    await recordSubmissionEvent(tx, {
      submissionId: submission.id,
      actorId: request.actorId,
      kind: "replay",
      fromValue: original.target,
      toValue: original.webhookId,
    });
    return { deliveryId: replay.id, destination };
  });
}
