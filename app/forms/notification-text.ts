import type { FieldDefinition } from "./definition";

/** The most of one answer a text or a notification quotes: a name's worth. */
export const NOTIFICATION_ANSWER_MAX = 40;

/** Line breaks, control and format characters (bidirectional overrides among them): each becomes a space. */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/**
 * Anything a phone would show as a link: a scheme (`https://`, `tel:`), `www.`, or a dotted host name with or
 * without a path (`evil.example/x`, `bit.ly`).
 */
const LINK_LIKE =
  /\b[a-z][a-z0-9+.-]*:\/\/\S*|\b(?:mailto|tel|sms|javascript|data):\S*|\bwww\.\S*|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b\S*/giu;

/**
 * Words with single spaces between them and none of what the cleaning takes out: no control character, and
 * neither `:` nor `.`, without which nothing reads as a link. Most answers (a name, a town) are this, and are
 * quoted as they are without running the cleaning's patterns over them, once for every lead.
 */
const ALREADY_PLAIN = /^[\p{L}\p{M}\p{N}'(),&/-]+(?: [\p{L}\p{M}\p{N}'(),&/-]+)*$/u;

/**
 * A visitor's answer as a text or a push notification may quote it: one line, without links, at most `max`
 * characters. The staff's phones read those as coming from the company, so nothing typed may read as a second
 * message, a link to follow or a number to ring.
 */
export function notificationAnswer(answer: unknown, max = NOTIFICATION_ANSWER_MAX): string {
  if (typeof answer !== "string") return "";
  if (answer.length <= max && ALREADY_PLAIN.test(answer)) return answer;
  const plain = answer.replace(CONTROL_CHARACTERS, " ").replace(LINK_LIKE, " ").replace(/\s+/g, " ").trim();
  return plain.length <= max ? plain : `${plain.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A number a notification's Call action may dial: a real-looking ten-digit North American number (area code
 * and exchange not starting with 0 or 1), written as `(803) 555-0142`; anything else gives no Call action.
 */
export function callableNumber(written: unknown): string | undefined {
  if (typeof written !== "string" || /[^\d\s().+-]/.test(written)) return undefined;
  const digits = written.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  const match = /^([2-9]\d{2})([2-9]\d{2})(\d{4})$/.exec(digits);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : undefined;
}

/**
 * The answers as a form's texts and notifications are given them: every answer made one plain line, and a
 * phone answer a number to call or empty. A definition's words are fixed; only these fill them in.
 */
export function notificationAnswers(
  fields: readonly Pick<FieldDefinition, "name" | "kind">[],
  payload: Record<string, unknown>,
): Record<string, string> {
  const phones = new Set(fields.filter((field) => field.kind === "tel").map((field) => field.name));
  return Object.fromEntries(
    Object.entries(payload).map(([name, answer]) => [
      name,
      phones.has(name) ? (callableNumber(answer) ?? "") : notificationAnswer(answer),
    ]),
  );
}
