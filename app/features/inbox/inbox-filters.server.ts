import * as z from "zod/mini";
import { submissionTypes } from "~/features/submission-types.server";
import { DELIVERY_STATES } from "./delivery-state";
import { FILTER_KEYS, SEARCH_MIN_LENGTH } from "./inbox-filters";

const SEARCH_MAX_LENGTH = 100;
const LAST_PAGE = 10_000;
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
const inboxFiltersSchema = z
  .object({
    // Which types and statuses exist is checked below, against the submission types.
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

/** The statuses a status filter may name: the chosen type's, or any type's when none (or an unknown one) is chosen. */
const statusesFor = (type: string | undefined): readonly string[] =>
  submissionTypes.find((definition) => definition.type === type)?.statuses ??
  submissionTypes.flatMap((definition) => definition.statuses);

const knownFiltersSchema = inboxFiltersSchema.check(
  z.refine((filters) => filters.type === undefined || submissionTypes.some(({ type }) => type === filters.type), {
    message: "Choose a type from the list",
    path: ["type"],
  }),
  z.refine((filters) => filters.status === undefined || statusesFor(filters.type).includes(filters.status), {
    message: "Choose a status of the chosen type",
    path: ["status"],
  }),
);

export type ParsedInboxFilters =
  | { status: "valid"; filters: InboxFilters }
  | { status: "invalid"; messages: string[]; values: Record<string, string> };

/** Reads the filters from a URL's query; empty fields (an untouched form control) count as not given. */
export function parseInboxFilters(searchParams: URLSearchParams): ParsedInboxFilters {
  const values: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = searchParams.get(key);
    if (value !== null && value.trim() !== "") values[key] = value;
  }
  const result = knownFiltersSchema.safeParse(values);
  if (result.success) return { status: "valid", filters: result.data };
  return { status: "invalid", messages: [...new Set(result.error.issues.map((issue) => issue.message))], values };
}
