import type { DeliveryChannel } from "~/services/db/schema.server";

/** A kind of failure, the words it is read in, and how the senders' errors of that kind begin or read. */
type FailureKind = { channels: readonly DeliveryChannel[] | "any"; error: RegExp; words: string };

/**
 * The senders' errors (email-sender, sms-sender, push-sender, webhook-sender, targets) by kind, first match
 * wins. Their own text quotes the mail server's answer ("550 <tech@example.com> rejected") or Twilio's message
 * with the number: only admins read it.
 */
const FAILURE_KINDS: readonly FailureKind[] = [
  {
    channels: "any",
    error: /is not set, so it is held|is not set$|are not set$/,
    words: "it is not set up on this server",
  },
  { channels: ["email"], error: /refused the address/, words: "the address was refused" },
  { channels: ["email"], error: /refused the sender address/, words: "the mail server refused our sender address" },
  { channels: ["email"], error: /refused the message/, words: "the mail server refused the message" },
  { channels: ["email"], error: /away for now/, words: "the mail server turned it away for now" },
  {
    channels: ["sms"],
    error: /Not a valid phone number|cannot reach this number|Not a mobile number/,
    words: "the number cannot take texts",
  },
  { channels: ["sms"], error: /opted out/, words: "the person turned texts from us off" },
  { channels: ["sms"], error: /credentials/, words: "the text service refused our account's settings" },
  {
    channels: ["sms"],
    error: /has had \d+ texts? in the last 24 hours/,
    words: "the number had its most texts for a day",
  },
  { channels: ["push"], error: /push address/, words: "the device's push address is not a push service" },
  { channels: ["sms"], error: /\(Twilio \d+\)$/, words: "the text service refused it" },
  { channels: ["push"], error: /no longer takes notifications/, words: "the device no longer takes notifications" },
  { channels: "any", error: /busy or unavailable|^HTTP (429|5\d\d)\b/, words: "the service was busy or unavailable" },
  { channels: "any", error: /refused|^HTTP \d+/, words: "the service refused it" },
  {
    channels: "any",
    error: /timed out|cut off|^E[A-Z_]+$|socket|connect|network|fetch failed/i,
    words: "the service did not answer",
  },
];

/**
 * Why a delivery failed, in words every staff member may read: a kind ("the address was refused", "the number
 * cannot take texts"), never the address, the number or the service's own message. Null when nothing failed.
 */
export function failureInWords(channel: DeliveryChannel, error: string | null): string | null {
  if (error === null) return null;
  const kind = FAILURE_KINDS.find(
    (candidate) =>
      (candidate.channels === "any" || candidate.channels.includes(channel)) && candidate.error.test(error),
  );
  return kind?.words ?? "it could not be sent";
}
