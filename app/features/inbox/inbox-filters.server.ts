import * as z from "zod/mini";
import { submissionTypes } from "~/features/submission-types.server";
import { FILTER_KEYS, type InboxFilters, inboxFiltersSchema } from "./inbox-filters";

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
