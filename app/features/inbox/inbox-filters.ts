import * as z from "zod/mini";
import { DELIVERY_STATES } from "./delivery-state";

export const INBOX_PAGE_SIZE = 50;
export const SEARCH_MIN_LENGTH = 3;
const SEARCH_MAX_LENGTH = 100;
const LAST_PAGE = 10_000;

export const SPAM_CHOICES = { no: "Not spam", yes: "Spam", all: "Spam and not spam" } as const;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};
const dateField = (which: string) =>
  z.optional(
    z
      .string()
      .check(
        z.regex(DATE_PATTERN, `The ${which} date must be a date such as 2025-03-31`),
        z.refine(isCalendarDate, `The ${which} date is not a day of the calendar`),
      ),
  );

/**
 * A phone number typed with its punctuation, "(803) 555-0100", is searched as its digits, which the search
 * column holds too; anything else is searched as typed, in lower case.
 */
export function normaliseSearch(value: string): string {
  const trimmed = value.trim().toLowerCase();
  return /^[\d\s().+-]+$/.test(trimmed) && /\d/.test(trimmed) ? trimmed.replace(/\D/g, "") : trimmed;
}

/** The inbox's query string: what the filter form sends and what links and bookmarks carry. */
export const inboxFiltersSchema = z
  .object({
    // Which types and statuses exist the server checks (inbox-filters.server.ts): the browser never loads them.
    type: z.optional(z.string()),
    status: z.optional(z.string()),
    spam: z._default(z.enum(["no", "yes", "all"], "Choose spam, not spam or both"), "no"),
    delivery: z.optional(z.enum(DELIVERY_STATES, "Choose a delivery state from the list")),
    from: dateField("from"),
    to: dateField("to"),
    q: z.optional(
      z
        .string()
        .check(
          z.maxLength(SEARCH_MAX_LENGTH, `A search has at most ${SEARCH_MAX_LENGTH} characters`),
          z.overwrite(normaliseSearch),
          z.minLength(SEARCH_MIN_LENGTH, `Search for at least ${SEARCH_MIN_LENGTH} characters`),
        ),
    ),
    page: z._default(
      z.coerce
        .number("The page must be a number")
        .check(
          z.int("The page must be a whole number"),
          z.minimum(1, "The page must be 1 or more"),
          z.maximum(LAST_PAGE, `The page must be ${LAST_PAGE} or less; narrow the filter instead`),
        ),
      1,
    ),
  })
  .check(
    z.refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
      message: "The from date must not be after the to date",
      path: ["to"],
    }),
  );

export type InboxFilters = z.infer<typeof inboxFiltersSchema>;

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
