import type { SentOutcome, StoredDelivery } from "~/forms/definition";
import type { TeamMessage, TeamMessageRecipient } from "./team-message";

/** The spec's words (§8), shown when every chosen person's email and text went to the outbox. */
export const MESSAGE_SENT = "Message sent successfully!";

type Channel = {
  /** "by email" */
  by: string;
  /** The service, as a subject: "email", "texts". */
  service: string;
  plural: boolean;
  address: (recipient: TeamMessageRecipient) => string | null;
  /** What a person without the address lacks. */
  lacks: string;
  delivery: StoredDelivery["channel"];
};

const EMAIL: Channel = {
  by: "by email",
  service: "email",
  plural: false,
  address: (recipient) => recipient.email?.toLowerCase() ?? null,
  lacks: "no email address",
  delivery: "email",
};
const TEXT: Channel = {
  by: "by text",
  service: "texts",
  plural: true,
  address: (recipient) => recipient.phoneNumber,
  lacks: "no mobile number we can text",
  delivery: "sms",
};

const people = (count: number) => (count === 1 ? "1 person" : `${count} people`);
const listed = (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

/**
 * What a team message's answer says, from its stored deliveries: the spec's words when every email and text it
 * meant to send went to the outbox ("sent", as the history counts a queued send), otherwise who it went to by
 * which channel, which service is not set up on this server (the person's record is not to blame), and who has
 * no address for a channel that is set up. Emails and texts are only made with their service set up, so a person
 * with an address and no delivery there means the service is not.
 */
export function teamMessageOutcome({
  payload,
  deliveries,
}: {
  payload: TeamMessage;
  deliveries: readonly StoredDelivery[];
}): SentOutcome {
  const findings = [EMAIL, TEXT].map((channel) => {
    const sentTo = new Set(
      deliveries
        .filter((delivery) => delivery.channel === channel.delivery)
        .map((delivery) => delivery.destination.toLowerCase()),
    );
    const withAddress = payload.recipients.filter((recipient) => channel.address(recipient) !== null);
    const reached = withAddress.filter((recipient) => sentTo.has(channel.address(recipient)?.toLowerCase() ?? ""));
    return {
      channel,
      reached,
      notSetUp: reached.length < withAddress.length,
      withoutAddress: payload.recipients.filter((recipient) => channel.address(recipient) === null),
    };
  });
  const reachedIds = new Set(findings.flatMap((finding) => finding.reached.map((recipient) => recipient.id)));
  const notSetUp = findings.filter((finding) => finding.notSetUp);
  if (notSetUp.length === 0 && payload.recipients.every((recipient) => reachedIds.has(recipient.id))) {
    return { sent: true, message: MESSAGE_SENT };
  }

  const toAutomation = deliveries.some((delivery) => delivery.channel === "webhook");
  const went = findings.filter((finding) => finding.reached.length > 0);
  const plural = notSetUp.length > 1 || notSetUp.some((finding) => finding.channel.plural);
  const services = `${listed(notSetUp.map((finding) => finding.channel.service))} ${plural ? "are" : "is"}`;
  const adminCanSetUp = `An admin can set ${plural ? "them" : "it"} up.`;
  const sentences: string[] = [];
  if (went.length > 0) {
    sentences.push(
      `Sent to ${listed(went.map((finding) => `${people(finding.reached.length)} ${finding.channel.by}`))}.`,
    );
    if (toAutomation) sentences.push("Passed to the message automation too.");
    if (notSetUp.length > 0) {
      const by = listed(notSetUp.map((finding) => finding.channel.by));
      sentences.push(`Not sent ${by}: ${services} not set up on this server. ${adminCanSetUp}`);
    }
  } else {
    const saved = toAutomation
      ? "Saved and passed to the message automation, but not sent by email or text"
      : "Saved, but not sent";
    sentences.push(
      notSetUp.length > 0 ? `${saved}: ${services} not set up on this server. ${adminCanSetUp}` : `${saved}.`,
    );
  }
  // Only for a channel that is set up: where it is not, nobody's address would have made a difference.
  for (const { channel, withoutAddress, notSetUp: channelNotSetUp } of findings) {
    if (channelNotSetUp || withoutAddress.length === 0) continue;
    const names = listed(withoutAddress.map((recipient) => recipient.name));
    sentences.push(`${names} ${withoutAddress.length === 1 ? "has" : "have"} ${channel.lacks}.`);
  }
  return { sent: false, message: sentences.join(" ") };
}
