import { defineForm, type PersonalMessage } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { MESSAGE_SENT, teamMessageOutcome } from "./message-outcome";
import { MESSAGE_BODY_MAX_LENGTH, teamMessageFields, teamMessageSchema } from "./schema";
import type { TeamMessage } from "./team-message";

export const TEAM_MESSAGE_STATUS = { sent: "Sent", archived: "Archived" } as const;

/** The automation's sender line (docs/spec.md §7), the same on every message. */
export const TEAM_MESSAGE_SENDER = "Team Communication System";

const FAILED = "Failed to send message. Please try again.";

/**
 * A text carries the subject above the body, unless that would pass the 1,600 characters Twilio sends as one
 * message: then the body alone, which the form keeps within the limit.
 */
function textOf(message: TeamMessage): string {
  const withSubject = `${message.subject}\n\n${message.body}`;
  return withSubject.length <= MESSAGE_BODY_MAX_LENGTH ? withSubject : message.body;
}

/**
 * Every recipient's email and text: one per address with a person who has it, one per readable mobile. People who
 * share an address (possible in ServiceTitan, or in directory entries older than its unique index) get one email
 * or text there, named for all of them; the webhook still lists each person.
 */
function personalMessages(message: TeamMessage): PersonalMessage[] {
  // By channel and address (an email address in lower case), in the order the people were chosen.
  const byAddress = new Map<string, { message: PersonalMessage; names: string[] }>();
  const add = (key: string, name: string, personal: PersonalMessage) => {
    const known = byAddress.get(key);
    if (known) known.names.push(name);
    else byAddress.set(key, { message: personal, names: [name] });
  };
  for (const { email, phoneNumber, name } of message.recipients) {
    if (email) {
      add(`email ${email.toLowerCase()}`, name, {
        channel: "email",
        name,
        to: email,
        subject: message.subject,
        text: message.body,
      });
    }
    if (phoneNumber) add(`sms ${phoneNumber}`, name, { channel: "sms", name, to: phoneNumber, text: textOf(message) });
  }
  return [...byAddress.values()].map(({ message: personal, names }) => ({ ...personal, name: names.join(", ") }));
}

/** Team Communication: a message from the office to technicians, by email and text. */
export const teamMessageForm = defineForm({
  type: "team-message",
  label: "Team message",
  referencePrefix: "MSG",
  audience: "staff",
  statuses: [TEAM_MESSAGE_STATUS.sent, TEAM_MESSAGE_STATUS.archived],
  // Sent by staff: nobody has to act on it, so the inbox does not count it as new.
  needsHandling: false,
  schema: teamMessageSchema,
  fields: teamMessageFields,
  contact: (message: TeamMessage) => ({
    // The inbox lists and searches a message by the people it went to.
    name: message.recipients.map((recipient) => recipient.name).join(", "),
    email: "",
    phone: "",
  }),
  maxBodyBytes: 64 * 1024,
  messages: formMessages({ success: MESSAGE_SENT, failed: FAILED, unreachable: FAILED }),
  outcome: teamMessageOutcome,
  deliveries: [
    { channel: "personal", messages: personalMessages },
    {
      channel: "webhook",
      target: "WEBHOOK_TEAM_MESSAGE_URL",
      receives: "team messages",
      // Exactly the original automation's payload (docs/spec.md §7).
      body: (message) => ({
        subject: message.subject,
        message: message.body,
        recipients: message.recipients.map((recipient) => ({
          id: recipient.id,
          name: recipient.name,
          email: recipient.email,
          phoneNumber: recipient.phoneNumber,
        })),
        timestamp: message.sentAt,
        sender: TEAM_MESSAGE_SENDER,
      }),
    },
  ],
});
