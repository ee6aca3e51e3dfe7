import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { type DeliveryStatus, deliveries } from "~/server/db/schema.server";
import { lockSubmission } from "./locked-submission.server";
import { recordSubmissionEvent } from "./submission-events.server";
import { WorkflowInputError } from "./workflow-error";

/** A delivery that has ended, one way or the other, may be sent again; one still under way or held may not. */
export const REPLAYABLE_STATUSES: readonly DeliveryStatus[] = ["failed", "delivered"];

/**
 * Sends a delivery again as a new delivery row: same target, destination, body and webhook-id, so a
 * receiver that saw it before can tell it is the same message. The caller wakes the worker.
 */
export async function replayDelivery(
  db: Database,
  request: { submissionId: number; deliveryId: number; actorId: number },
): Promise<{ deliveryId: number }> {
  return db.transaction(async (tx) => {
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
    const [replay] = await tx
      .insert(deliveries)
      .values({
        submissionId: submission.id,
        webhookId: original.webhookId,
        channel: original.channel,
        target: original.target,
        destination: original.destination,
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
    return { deliveryId: replay.id };
  });
}
