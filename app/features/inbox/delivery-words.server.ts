import { failureInWords } from "~/outbox/failure-words.server";
import { isNumberDayLimit } from "~/outbox/sms-sender.server";
import type { DeliveryChannel, DeliveryStatus } from "~/services/db/schema.server";

/** Where a delivery goes, as staff say it: "the estimate webhook", "the office email", a person by text. */
export function recipientInWords(channel: DeliveryChannel, target: string): string {
  const webhook = /^WEBHOOK_([A-Z0-9_]+?)(?:_URL)?$/.exec(target);
  if (webhook?.[1]) return `the ${webhook[1].toLowerCase().replaceAll("_", " ")} webhook`;
  const named: Record<string, string> = {
    STAFF_NOTIFY_EMAIL: "the office email",
    ESTIMATE_SCHEDULER_EMAIL: "the scheduler's email",
    APPLICANT_RECEIPT: "the applicant, as a receipt",
    NEW_LEAD_SMS_TO: "the new-lead phone, as a text",
  };
  const known = named[target];
  if (known) return known;
  if (channel === "sms") return `${target}, by text`;
  if (channel === "push") return `${target}, as a notification`;
  return `${target}, by email`;
}

type DeliveryFacts = {
  channel: DeliveryChannel;
  target: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastError: string | null;
  /** When the next try is due, and when it was delivered, as staff read times. */
  nextTry: string;
  delivered: string | null;
  isSpam: boolean;
};

/**
 * What happened to a delivery, in one plain sentence that never contradicts its state: why it failed as a kind
 * of failure, and no setting names, ids, attempt counts or the service's own error (those are in the admin's
 * details: an error quotes addresses and numbers).
 */
export function deliveryInWords(delivery: DeliveryFacts): string {
  const to = recipientInWords(delivery.channel, delivery.target);
  const failure = failureInWords(delivery.channel, delivery.lastError);
  const why = failure ? ` (${failure})` : "";
  switch (delivery.status) {
    case "delivered":
      return `Sent to ${to}, ${delivery.delivered ?? "time not recorded"}.`;
    case "pending":
      return delivery.attemptCount === 0
        ? `Waiting to be sent to ${to}.`
        : `Not sent to ${to} yet: trying again ${delivery.nextTry} after a failure${why}.`;
    case "sending":
      return delivery.attemptCount > 1 ? `Sending to ${to} now, again after a failure.` : `Sending to ${to} now.`;
    case "failed":
      if (isNumberDayLimit(delivery.lastError)) return `Not sent to ${to}: ${delivery.lastError?.toLowerCase()}.`;
      return `Failed: it was not sent to ${to}${why}, and will not be tried again by itself.`;
    case "held":
      if (delivery.isSpam && !delivery.lastError) return `Not sent to ${to}: it is marked as spam.`;
      return `Not sent: ${to} is not set up. An admin can set it up.`;
  }
}

/** The sentence for a target the form sends to whose setting was not set when the submission came in. */
export const unsetTargetInWords = (target: string) =>
  `Not sent: ${recipientInWords("webhook", target)} is not set up. An admin can set it up.`;
