/** How long the summary of what someone asked may be on a card or at the top of their page. */
const SUMMARY_MAX_LENGTH = 120;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The payload's first non-empty answer among `keys`. */
const firstOf = (payload: Record<string, unknown>, keys: readonly string[]) =>
  keys.map((key) => text(payload[key])).find((value) => value !== "") ?? "";

const shortened = (value: string) =>
  value.length <= SUMMARY_MAX_LENGTH ? value : `${value.slice(0, SUMMARY_MAX_LENGTH - 1).trimEnd()}…`;

/**
 * A lead at a glance, from whichever of the forms' answers it has: where (the city, or a job's address) and
 * what they asked (the kind of project, role or job, alone and with the start of their comments). Empty when the form asks
 * neither.
 */
export function leadGist(payload: Record<string, unknown>): { place: string; kind: string; asked: string } {
  const kind = firstOf(payload, ["projectType", "desiredRole", "jobName", "subject"]);
  const comments = firstOf(payload, ["comments", "jobSummary", "description", "notes"]);
  const kindWords = kind === "" ? "" : kind.charAt(0).toUpperCase() + kind.slice(1);
  return {
    place: firstOf(payload, ["city", "jobAddress", "address"]),
    kind: kindWords,
    asked: shortened([kindWords, comments].filter((part) => part !== "").join(": ")),
  };
}
