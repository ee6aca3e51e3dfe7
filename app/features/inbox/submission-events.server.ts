import type { Transaction } from "~/server/db/database.server";
import { type SubmissionEventKind, submissionEvents } from "~/server/db/schema.server";

/** Writes one line of a submission's change history; called inside the transaction that made the change. */
export async function recordSubmissionEvent(
  tx: Transaction,
  event: {
    submissionId: number;
    actorId: number;
    kind: SubmissionEventKind;
    fromValue?: string | null;
    toValue?: string | null;
  },
): Promise<void> {
  await tx.insert(submissionEvents).values({
    submissionId: event.submissionId,
    actorId: event.actorId,
    kind: event.kind,
    fromValue: event.fromValue ?? null,
    toValue: event.toValue ?? null,
  });
}
