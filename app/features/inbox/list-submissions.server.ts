import { count, desc } from "drizzle-orm";
import { submissionTypes } from "~/features/submissions/submission-types";
import type { Database } from "~/server/db/database.server";
import { submissions } from "~/server/db/schema.server";
import { INBOX_PAGE_SIZE, type InboxFilters } from "./inbox-filters";
import { deliveryStateOfSubmission, inboxConditions, isNewSubmission } from "./inbox-query.server";

/** The columns of a submission the list shows. */
export const inboxRowColumns = {
  id: submissions.id,
  reference: submissions.reference,
  type: submissions.type,
  status: submissions.status,
  isSpam: submissions.isSpam,
  createdAt: submissions.createdAt,
  contactName: submissions.contactName,
  contactEmail: submissions.contactEmail,
  contactPhone: submissions.contactPhone,
  deliveryState: deliveryStateOfSubmission,
};

/**
 * One page of the inbox, newest first. Offset paging over the (created_at, id) indexes: pages stay numbered
 * and shareable, and one row more than a page tells whether another page follows without counting them all.
 */
export async function listSubmissions(db: Database, filters: InboxFilters) {
  const rows = await db
    .select(inboxRowColumns)
    .from(submissions)
    .where(inboxConditions(filters))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(INBOX_PAGE_SIZE + 1)
    .offset((filters.page - 1) * INBOX_PAGE_SIZE);
  return { rows: rows.slice(0, INBOX_PAGE_SIZE), hasNextPage: rows.length > INBOX_PAGE_SIZE };
}

export type InboxRow = Awaited<ReturnType<typeof listSubmissions>>["rows"][number];

/** How many submissions of each type nobody has handled yet (their first status, not spam). */
export async function countNewSubmissions(db: Database) {
  const counts = await db
    .select({ type: submissions.type, count: count() })
    .from(submissions)
    .where(isNewSubmission())
    .groupBy(submissions.type);
  return submissionTypes.map((description) => ({
    type: description.type,
    label: description.label,
    status: description.statuses[0],
    count: counts.find((row) => row.type === description.type)?.count ?? 0,
  }));
}
