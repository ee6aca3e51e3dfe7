import { eq, type SQL, sql } from "drizzle-orm";
import { company } from "~/content/company";
import { submissionTypes } from "~/features/submission-types.server";
import type { Database } from "~/services/db/database.server";
import { submissions } from "~/services/db/schema.server";
import { INBOX_PAGE_SIZE } from "./inbox-filters";
import type { InboxFilters } from "./inbox-filters.server";
import { deliveryStateOfSubmission, inboxConditions, newestFirst } from "./inbox-query.server";
import { leadGist } from "./lead-gist.server";

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

const yearFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone: company.timeZone });
const timeFormat = (withYear: boolean) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: withYear ? "numeric" : undefined,
    hour: "numeric",
    minute: "2-digit",
    timeZone: company.timeZone,
  });
const thisYearsTime = timeFormat(false);
const datedTime = timeFormat(true);

/** When a lead came in, as short as a card needs: "Dec 6, 3:10 PM", with the year only when it is not this one. */
function formatCardTime(value: Date): string {
  const thisYear = yearFormat.format(new Date()) === yearFormat.format(value);
  return (thisYear ? thisYearsTime : datedTime).format(value);
}

/**
 * The query of one page of the inbox, newest first. Offset paging over the (created_at, id) indexes keeps
 * pages numbered and shareable. The page's ids are picked first and its rows and delivery states read for
 * them only: in one flat query PostgreSQL would read them for every row the offset skips too. It asks for one
 * row more than a page, which tells whether another page follows.
 */
export function inboxPageQuery(db: Database, filters: InboxFilters, hiddenTypes: readonly string[] = []) {
  // Only the ids while skipping earlier pages: the default view reads them from its index alone
  // (submissions_not_spam_created_at_idx), where whole rows would be fetched for every row skipped.
  const page = db
    .select({ id: submissions.id })
    .from(submissions)
    .where(inboxConditions(filters, hiddenTypes))
    .orderBy(...newestFirst)
    .limit(INBOX_PAGE_SIZE + 1)
    .offset((filters.page - 1) * INBOX_PAGE_SIZE)
    .as("page");
  return db
    .select({ ...submissionColumns, payload: submissions.payload, deliveryState: deliveryStateOfSubmission })
    .from(submissions)
    .innerJoin(page, eq(page.id, submissions.id))
    .orderBy(...newestFirst);
}

/**
 * The inbox counts what a filter matches up to this many, and says "more than 10,000" past it: enough to page
 * through, and a count of every row of a million-row inbox would slow each page.
 */
export const MATCH_COUNT_CAP = 10_000;

/** How many submissions a filter matches, counted up to one past MATCH_COUNT_CAP along the list's own indexes. */
async function countMatches(db: Database, filters: InboxFilters, hiddenTypes: readonly string[]) {
  const { rows } = await db.execute<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM (
      SELECT 1 FROM ${submissions} WHERE ${inboxConditions(filters, hiddenTypes) ?? sql`true`}
      LIMIT ${MATCH_COUNT_CAP + 1}
    ) AS capped`,
  );
  const counted = rows[0]?.count ?? 0;
  return { count: Math.min(counted, MATCH_COUNT_CAP), beyondCap: counted > MATCH_COUNT_CAP };
}

export async function listSubmissions(db: Database, filters: InboxFilters, hiddenTypes: readonly string[] = []) {
  const [rows, matches] = await Promise.all([
    inboxPageQuery(db, filters, hiddenTypes),
    countMatches(db, filters, hiddenTypes),
  ]);
  return {
    // The payload stays on the server: the card shows only its gist.
    rows: rows.slice(0, INBOX_PAGE_SIZE).map(({ createdAt, payload, ...row }) => ({
      ...row,
      ...leadGist(payload),
      received: formatCardTime(createdAt),
    })),
    hasNextPage: rows.length > INBOX_PAGE_SIZE,
    matches,
  };
}

/**
 * Counted up to this many new submissions of a type, and shown as "1,000+" past it: every inbox page shows
 * the counts, and counting every unhandled row of a million-row inbox took 220 ms a page.
 */
export const NEW_COUNT_CAP = 1000;

/** The types whose new submissions the inbox counts for a viewer. */
function countedTypes(hiddenTypes: readonly string[]) {
  return submissionTypes.filter(
    (description) => description.needsHandling !== false && !hiddenTypes.includes(description.type),
  );
}

/**
 * How many submissions of each type nobody has handled yet (their first status, not spam), each counted up to
 * one past NEW_COUNT_CAP: per type, a bounded walk of the (type, status) index.
 */
export function newSubmissionCountsQuery(hiddenTypes: readonly string[] = []): SQL {
  const perType = countedTypes(hiddenTypes).map(
    (description) => sql`SELECT ${description.type}::text AS type, (
      SELECT count(*) FROM (
        SELECT 1 FROM ${submissions}
        WHERE ${submissions.type} = ${description.type} AND ${submissions.status} = ${description.statuses[0]}
          AND NOT ${submissions.isSpam}
        LIMIT ${NEW_COUNT_CAP + 1}
      ) AS capped
    )::int AS count`,
  );
  return sql.join(perType, sql` UNION ALL `);
}

export async function countNewSubmissions(db: Database, hiddenTypes: readonly string[] = []) {
  const { rows } = await db.execute<{ type: string; count: number }>(newSubmissionCountsQuery(hiddenTypes));
  return countedTypes(hiddenTypes).map((description) => {
    const counted = rows.find((row) => row.type === description.type)?.count ?? 0;
    const count = Math.min(counted, NEW_COUNT_CAP);
    return {
      type: description.type,
      label: description.label,
      status: description.statuses[0],
      count,
      /** More than `count` wait: the count stopped at the cap. */
      atLeast: counted > NEW_COUNT_CAP,
      /** As the page shows it ("1,000+"), formatted here: a browser's first number formatter slows the page's opening. */
      shown: `${count.toLocaleString("en-US")}${counted > NEW_COUNT_CAP ? "+" : ""}`,
    };
  });
}
