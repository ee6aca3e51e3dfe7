import { type AppLoadContext, data } from "react-router";
import { typeChoicesFor, typesHiddenFrom, typesNotExportableBy } from "~/features/submission-types.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { INBOX_PAGE_SIZE } from "./inbox-filters";
import { type InboxFilters, parseInboxFilters } from "./inbox-filters.server";
import { countNewSubmissions, listSubmissions } from "./list-submissions.server";

type Matches = { count: number; beyondCap: boolean };

/** Whether the filter narrows the list beyond its default (not spam, every type, any time), the search aside. */
const narrowsBeyondSearch = (filters: InboxFilters) =>
  filters.type !== undefined ||
  filters.status !== undefined ||
  filters.delivery !== undefined ||
  filters.from !== undefined ||
  filters.to !== undefined ||
  filters.spam !== "no";

/**
 * What the list shows, in words, as the heading of the results: "3 leads match “Reyes”", "12 match these
 * filters", "No lead matches “Reyes”", "More than 10,000 submissions". `searchedFor` is the search as typed.
 */
export function describeMatches(matches: Matches, filters: InboxFilters, searchedFor: string | undefined): string {
  const { count, beyondCap } = matches;
  const many = beyondCap || count !== 1;
  const number = beyondCap ? `More than ${count.toLocaleString("en-US")}` : count.toLocaleString("en-US");
  const search = searchedFor ? `“${searchedFor}”` : undefined;
  if (narrowsBeyondSearch(filters)) {
    if (count === 0) return "Nothing matches these filters.";
    return `${number} ${many ? "match" : "matches"} ${search ? `${search} and these filters` : "these filters"}`;
  }
  if (search) {
    if (count === 0) return `No lead matches ${search}.`;
    return `${number} ${many ? "leads match" : "lead matches"} ${search}`;
  }
  return `${number} ${many ? "submissions" : "submission"}, newest first`;
}

/**
 * Where a page is in the list, "51–100 of 312" ("… of more than 10,000" past the count's cap), formatted here: a
 * browser's first number formatter slows the page's opening.
 */
export function describePage(page: number, rowsShown: number, matches: Matches): string {
  const first = (page - 1) * INBOX_PAGE_SIZE + 1;
  const last = first + Math.max(rowsShown, 1) - 1;
  const total = matches.count.toLocaleString("en-US");
  return `${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${matches.beyondCap ? `more than ${total}` : total}`;
}

/** The search as the person typed it, when the filter searches; the filter holds it folded for the query. */
export const typedSearch = (searchParams: URLSearchParams, filters: InboxFilters) =>
  filters.q === undefined ? undefined : searchParams.get("q")?.trim();

/** The inbox list's loader: a filter the URL gets wrong is answered 400 with what to fix, never a 500. */
export async function loadInbox(request: Request, context: AppLoadContext) {
  const staff = signedInStaff(context);
  const hiddenTypes = typesHiddenFrom(staff.role);
  const searchParams = new URL(request.url).searchParams;
  const parsed = parseInboxFilters(searchParams);
  const newCounts = await countNewSubmissions(context.db, hiddenTypes);
  const types = typeChoicesFor(staff.role);
  if (parsed.status === "invalid") {
    return data(
      { status: "invalid" as const, messages: parsed.messages, values: parsed.values, newCounts, types },
      { status: 400 },
    );
  }
  const page = await listSubmissions(context.db, parsed.filters, hiddenTypes);
  const notExported = typesNotExportableBy(staff.role).map(({ label }) => label);
  const searchedFor = typedSearch(searchParams, parsed.filters);
  return data({
    status: "valid" as const,
    // The search as typed ("Reyes", "(803) 555-0100"), for the form, the links and the count's words.
    filters: searchedFor === undefined ? parsed.filters : { ...parsed.filters, q: searchedFor },
    matchesInWords: describeMatches(page.matches, parsed.filters, searchedFor),
    pageInWords: describePage(parsed.filters.page, page.rows.length, page.matches),
    ...page,
    newCounts,
    notExported,
    types,
  });
}

export type InboxLoaderData = Awaited<ReturnType<typeof loadInbox>>["data"];
