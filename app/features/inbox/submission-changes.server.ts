import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Transaction } from "~/services/db/database.server";
import { type SubmissionEventKind, submissionEvents, submissions } from "~/services/db/schema.server";

/**
 * The submission, locked for the rest of the transaction, so two staff changing it at once each see the
 * other's change in their history's "from". A 404 when it does not exist (deleted by retention meanwhile).
 */
export async function lockSubmission(tx: Transaction, submissionId: number) {
  const [submission] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for("update");
  if (!submission) throw data({ message: "No such submission." }, { status: 404 });
  return submission;
}

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
