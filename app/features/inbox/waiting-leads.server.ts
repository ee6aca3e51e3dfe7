import { and, eq, lt, not } from "drizzle-orm";
import { plural } from "~/content/plural";
import { describeSubmissionType } from "~/features/submission-types.server";
import { submissions } from "~/services/db/schema.server";

/** The leads: the public estimate requests, whose first status is "not handled yet". */
export function leadType() {
  const estimate = describeSubmissionType("estimate");
  return { type: estimate.type, label: estimate.label, newStatus: estimate.statuses[0] };
}

/**
 * The leads no one has taken up: estimate requests, not spam, still at their first status (New). The dashboard
 * warns of those older than INBOX_ALERT_AFTER, and /metrics gives their number and the oldest one's age.
 */
export function stillNewLeadsWhere() {
  const leads = leadType();
  return and(eq(submissions.type, leads.type), eq(submissions.status, leads.newStatus), not(submissions.isSpam));
}

/** Leads still new, not spam, that came in more than `after` (INBOX_ALERT_AFTER) before `now`. */
export function waitingLeadsWhere(after: number, now: Date) {
  return and(stillNewLeadsWhere(), lt(submissions.createdAt, new Date(now.getTime() - after)));
}

/** INBOX_ALERT_AFTER as the dashboard says it: "24 hours", "90 minutes". */
export function waitingTime(milliseconds: number): string {
  const hours = milliseconds / 3_600_000;
  if (hours >= 1 && Number.isInteger(hours)) return plural(hours, "hour", "hours");
  return plural(Math.round(milliseconds / 60_000), "minute", "minutes");
}
