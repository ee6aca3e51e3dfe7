import { companyToday } from "./company-day";
import type { FieldDefinition, SoftCheck } from "./definition";

/*
 * Soft checks: an answer that is allowed but often a slip (an appointment already past, a phone number too short)
 * is pointed out beside its field on the first press of the send button, and sent as it is on the second. The
 * browser checks before sending; the server checks again, so a page without JavaScript is told the same, and lets
 * the post through once it names the fields whose warnings were shown (SOFT_CHECKS_SEEN_FIELD).
 */

/**
 * The hidden field that names, space-separated, the fields whose warnings the sender has seen, or which the
 * browser has checked itself before a send: those are not checked again.
 */
export const SOFT_CHECKS_SEEN_FIELD = "softChecksSeen";

/** The form's line while its warnings wait for a second press. */
export const SOFT_CHECKS_MESSAGE = "Please check the answers marked below. To send them as they are, submit again.";

export const PAST_DATE_WARNING = "This date has already passed. Check it, or submit again to keep it.";
export const SHORT_PHONE_WARNING = "This phone number has fewer than ten digits. Check it, or submit again to keep it.";

/** A date (YYYY-MM-DD) before today on the company's calendar. */
export const notBeforeToday: SoftCheck = (answer) =>
  /^\d{4}-\d{2}-\d{2}$/.test(answer) && answer < companyToday() ? PAST_DATE_WARNING : undefined;

/** A phone number with some digits, but fewer than the ten of a US number with its area code. */
export const tenDigitPhone: SoftCheck = (answer) => {
  const digits = answer.replace(/\D/g, "").length;
  return digits > 0 && digits < 10 ? SHORT_PHONE_WARNING : undefined;
};

type Answers = Pick<FormData, "get">;

/** What each soft-checked field's answer is warned of, by field name (empty when none is). */
export function softWarnings(fields: readonly FieldDefinition[], answers: Answers): Record<string, string> {
  const warnings: Record<string, string> = {};
  for (const { name, softCheck } of fields) {
    const answer = answers.get(name);
    const warning = softCheck && typeof answer === "string" ? softCheck(answer.trim()) : undefined;
    if (warning) warnings[name] = warning;
  }
  return warnings;
}

/** The fields whose warnings the post says were seen. */
export function seenWarnings(answers: Answers): Set<string> {
  const seen = answers.get(SOFT_CHECKS_SEEN_FIELD);
  return new Set(typeof seen === "string" ? seen.split(" ").filter(Boolean) : []);
}

/** The warnings not yet seen: the post waits for a second press while there is one. */
export function unseenWarnings(fields: readonly FieldDefinition[], answers: Answers): Record<string, string> {
  const seen = seenWarnings(answers);
  return Object.fromEntries(Object.entries(softWarnings(fields, answers)).filter(([name]) => !seen.has(name)));
}
