import * as z from "zod/mini";
import { submissionTypes } from "~/features/submission-types";
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

const allStatuses = new Set(submissionTypes.flatMap((description) => description.statuses));

/** The statuses a status filter may name: the chosen type's, or any type's when none is chosen. */
export function statusesFor(type: string | undefined): readonly string[] {
  const description = submissionTypes.find((candidate) => candidate.type === type);
  return description ? description.statuses : [...allStatuses];
}

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
    type: z.optional(
      z.enum(
        submissionTypes.map((description) => description.type) as [string, ...string[]],
        "Choose a type from the list",
      ),
    ),
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
    z.refine((filters) => filters.status === undefined || statusesFor(filters.type).includes(filters.status), {
      message: "Choose a status of the chosen type",
      path: ["status"],
    }),
    z.refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
      message: "The from date must not be after the to date",
      path: ["to"],
    }),
  );

export type InboxFilters = z.infer<typeof inboxFiltersSchema>;

export type ParsedInboxFilters =
  | { status: "valid"; filters: InboxFilters }
  | { status: "invalid"; messages: string[]; values: Record<string, string> };

const FILTER_KEYS = ["type", "status", "spam", "delivery", "from", "to", "q", "page"] as const;

/** Reads the filters from a URL's query; empty fields (an untouched form control) count as not given. */
export function parseInboxFilters(searchParams: URLSearchParams): ParsedInboxFilters {
  const values: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = searchParams.get(key);
    if (value !== null && value.trim() !== "") values[key] = value;
  }
  const result = inboxFiltersSchema.safeParse(values);
  if (result.success) return { status: "valid", filters: result.data };
  return { status: "invalid", messages: [...new Set(result.error.issues.map((issue) => issue.message))], values };
}

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
