import { and, eq, sql } from "drizzle-orm";
import { type Database, inTransaction } from "~/services/db/database.server";
import { deliveries, submissions } from "~/services/db/schema.server";
import { lockSubmission, recordSubmissionEvent } from "./submission-changes.server";

export const MARKED_BY_STAFF_REASON = "marked as spam by staff";

const spamLabel = (isSpam: boolean) => (isSpam ? "spam" : "not spam");

/**
 * Marks a submission as spam, which holds its deliveries not yet sent, or as not spam, which releases its
 * held deliveries to be sent now. Resolves with whether anything changed; the caller wakes the worker.
 * A delivery being sent at this moment finishes its attempt either way.
 */
export async function markSubmissionSpam(
  db: Database,
  change: { submissionId: number; actorId: number; isSpam: boolean },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const submission = await lockSubmission(tx, change.submissionId);
    if (submission.isSpam === change.isSpam) return false;
    await tx
      .update(submissions)
      .set({
        isSpam: change.isSpam,
        spamReason: change.isSpam ? MARKED_BY_STAFF_REASON : null,
        spamSince: change.isSpam ? sql`now()` : null,
      })
      .where(eq(submissions.id, submission.id));
    const [from, to] = change.isSpam ? (["pending", "held"] as const) : (["held", "pending"] as const);
    await tx
      .update(deliveries)
      .set({ status: to, nextAttemptAt: sql`now()` })
      .where(and(eq(deliveries.submissionId, submission.id), eq(deliveries.status, from)));
    await recordSubmissionEvent(tx, {
      submissionId: submission.id,
      actorId: change.actorId,
      kind: "spam",
      fromValue: spamLabel(submission.isSpam),
      toValue: spamLabel(change.isSpam),
    });
    return true;
  });
}
