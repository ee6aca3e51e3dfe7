import { count, sql } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { submissions } from "~/server/db/schema.server";
import { submissionTypes } from "~/submission-types";
import { INBOX_PAGE_SIZE, type InboxFilters } from "./inbox-filters";
import { deliveryStateOf, inboxConditions, isNewSubmission, newestFirst } from "./inbox-query.server";

/** The columns of a submission the list shows, but its delivery state. */
export const submissionColumns = {
  id: submissions.id,
  reference: submissions.reference,
  type: submissions.type,
  status: submissions.status,
  isSpam: submissions.isSpam,
  suspiciousReason: submissions.suspiciousReason,
  createdAt: submissions.createdAt,
  contactName: submissions.contactName,
  contactEmail: submissions.contactEmail,
  contactPhone: submissions.contactPhone,
};

/**
 * The query of one page of the inbox, newest first. Offset paging over the (created_at, id) indexes keeps
 * pages numbered and shareable. The page is picked first and the delivery states worked out for its rows
 * only: in one flat query PostgreSQL would work them out for every row the offset skips too. It asks for one
 * row more than a page, which tells whether another page follows.
 */
export function inboxPageQuery(db: Database, filters: InboxFilters, hiddenTypes: readonly string[] = []) {
  const page = db
    .select(submissionColumns)
    .from(submissions)
    .where(inboxConditions(filters, hiddenTypes))
    .orderBy(...newestFirst)
    .limit(INBOX_PAGE_SIZE + 1)
    .offset((filters.page - 1) * INBOX_PAGE_SIZE)
    .as("page");
  return db
    .select({
      id: page.id,
      reference: page.reference,
      type: page.type,
      status: page.status,
      isSpam: page.isSpam,
      suspiciousReason: page.suspiciousReason,
      createdAt: page.createdAt,
      contactName: page.contactName,
      contactEmail: page.contactEmail,
      contactPhone: page.contactPhone,
      deliveryState: deliveryStateOf(sql`page.id`),
    })
    .from(page)
    .orderBy(sql`page.created_at DESC, page.id DESC`);
}

export async function listSubmissions(db: Database, filters: InboxFilters, hiddenTypes: readonly string[] = []) {
  const rows = await inboxPageQuery(db, filters, hiddenTypes);
  return { rows: rows.slice(0, INBOX_PAGE_SIZE), hasNextPage: rows.length > INBOX_PAGE_SIZE };
}

/** How many submissions of each type nobody has handled yet (their first status, not spam). */
export function newSubmissionCountsQuery(db: Database, hiddenTypes: readonly string[] = []) {
  return db
    .select({ type: submissions.type, count: count() })
    .from(submissions)
    .where(isNewSubmission(hiddenTypes))
    .groupBy(submissions.type);
}

export async function countNewSubmissions(db: Database, hiddenTypes: readonly string[] = []) {
  const counts = await newSubmissionCountsQuery(db, hiddenTypes);
  const shown = submissionTypes.filter(
    (description) => description.needsHandling !== false && !hiddenTypes.includes(description.type),
  );
  return shown.map((description) => ({
    type: description.type,
    label: description.label,
    status: description.statuses[0],
    count: counts.find((row) => row.type === description.type)?.count ?? 0,
  }));
}
