import type { InboxFilters } from "./inbox-filters.server";

/*
 * What the inbox's pages need of its filters in the browser. The filters' schema, which would bring zod to every
 * staff page that links to the inbox, is the server's (inbox-filters.server.ts).
 */

export const INBOX_PAGE_SIZE = 50;
export const SEARCH_MIN_LENGTH = 3;

export const SPAM_CHOICES = { no: "Not spam", yes: "Spam", all: "Spam and not spam" } as const;

export const FILTER_KEYS = ["type", "status", "spam", "delivery", "from", "to", "q", "page"] as const;

/** The query string of a filter, leaving out what is the default, so links stay short and readable. */
export function inboxQuery(filters: Partial<InboxFilters>): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || (key === "spam" && value === "no") || (key === "page" && value === 1)) continue;
    params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
