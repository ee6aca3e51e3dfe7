import { and, eq, not } from "drizzle-orm";
import { describeSubmissionType } from "~/features/submission-types.server";
import { submissions } from "~/server/db/schema.server";

/**
 * The leads no one has taken up: estimate requests, not spam, still at their first status (New). The dashboard
 * warns of those older than INBOX_ALERT_AFTER, and /metrics gives their number and the oldest one's age.
 */
export function waitingLeads() {
  const estimate = describeSubmissionType("estimate");
  const newStatus = estimate.statuses[0];
  return {
    estimate,
    newStatus,
    isWaiting: and(eq(submissions.type, estimate.type), eq(submissions.status, newStatus), not(submissions.isSpam)),
  };
}
