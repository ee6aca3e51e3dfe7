import { and, eq, gte, lt, notInArray, type SQL, sql } from "drizzle-orm";
import { company } from "~/content/company";
import { submissions } from "~/services/db/schema.server";
import type { DeliveryState } from "./delivery-state";
import type { InboxFilters } from "./inbox-filters.server";

// Table-qualified by hand: drizzle leaves out table names when a query reads one table, and a bare "id"
// inside the subquery would be the delivery's own id.
const SUBMISSION_ID = sql`submissions.id`;

/**
 * The delivery state of a submission, from its deliveries: a failure outranks a retry, a retry outranks a
 * hold, and only all delivered is "delivered". In the select list of a paged query this runs for the rows
 * returned, each an index lookup on deliveries_submission_idx.
 */
export const deliveryStateOfSubmission = sql<DeliveryState>`(SELECT CASE
    WHEN count(*) = 0 THEN 'none'
    WHEN bool_or(d.status = 'failed') THEN 'failed'
    WHEN bool_or(d.status IN ('pending', 'sending')) THEN 'retrying'
    WHEN bool_or(d.status = 'held') THEN 'held'
    ELSE 'delivered' END
  FROM deliveries AS d WHERE d.submission_id = ${SUBMISSION_ID})`;

/**
 * Newest first, spelled exactly as the (created_at, id) indexes are built (DESC NULLS LAST): a plain DESC
 * means NULLS FIRST, which the planner will not read from those indexes, and it sorts the table instead.
 */
export const newestFirst = [
  sql`${submissions.createdAt} DESC NULLS LAST`,
  sql`${submissions.id} DESC NULLS LAST`,
] as const;

/** The start of a calendar day in the company's zone, as an instant. */
const startOfCompanyDay = (date: string) => sql`((${date}::date)::timestamp AT TIME ZONE ${company.timeZone})`;
const startOfNextCompanyDay = (date: string) => sql`((${date}::date + 1)::timestamp AT TIME ZONE ${company.timeZone})`;

/** `%`, `_` and `\` typed in a search are looked for as themselves, not as LIKE wildcards. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (character) => `\\${character}`);

function deliveryCondition(state: DeliveryState): SQL {
  // A failure outranks every other state, so "has a failed delivery" is the failed state; the partial index
  // deliveries_failed_idx answers it without reading the other deliveries.
  if (state === "failed") {
    return sql`EXISTS (SELECT 1 FROM deliveries AS d WHERE d.submission_id = ${SUBMISSION_ID} AND d.status = 'failed')`;
  }
  return sql`${deliveryStateOfSubmission} = ${state}`;
}

/**
 * The WHERE clause of a filter, shared by the list, its export and the counts. `hiddenTypes` are the types
 * the viewer may not read (typesHiddenFrom), left out whatever the filter asks.
 */
export function inboxConditions(
  filters: Omit<InboxFilters, "page">,
  hiddenTypes: readonly string[] = [],
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    hiddenTypes.length === 0 ? undefined : notInArray(submissions.type, [...hiddenTypes]),
    filters.type === undefined ? undefined : eq(submissions.type, filters.type),
    filters.status === undefined ? undefined : eq(submissions.status, filters.status),
    filters.spam === "all" ? undefined : eq(submissions.isSpam, filters.spam === "yes"),
    filters.delivery === undefined ? undefined : deliveryCondition(filters.delivery),
    filters.from === undefined ? undefined : gte(submissions.createdAt, startOfCompanyDay(filters.from)),
    filters.to === undefined ? undefined : lt(submissions.createdAt, startOfNextCompanyDay(filters.to)),
    // search_text is stored folded (fold_text: lower case, no accents), and the search is folded by the same SQL
    // function, not in JavaScript, so the two always agree; the trigram index serves LIKE with a leading wildcard.
    filters.q === undefined
      ? undefined
      : sql`${submissions.searchText} LIKE fold_text(${`%${escapeLike(filters.q)}%`})`,
  ];
  return and(...conditions);
}
