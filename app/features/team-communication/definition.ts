import { defineForm, type PersonalMessage } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { teamMessageFields } from "./fields";
import { MESSAGE_BODY_MAX_LENGTH, teamMessageSchema } from "./schema";
import type { TeamMessage } from "./team-message";

export const TEAM_MESSAGE_STATUS = { sent: "Sent", archived: "Archived" } as const;

/** The automation's sender line (spec §7), the same on every message. */
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

/** Every recipient's email and text: one per person with an address, one per person with a readable mobile. */
function personalMessages(message: TeamMessage): PersonalMessage[] {
  return message.recipients.flatMap((recipient): PersonalMessage[] => [
    ...(recipient.email
      ? [
          {
            channel: "email" as const,
            name: recipient.name,
            to: recipient.email,
            subject: message.subject,
            text: message.body,
          },
        ]
      : []),
    ...(recipient.phoneNumber
      ? [{ channel: "sms" as const, name: recipient.name, to: recipient.phoneNumber, text: textOf(message) }]
      : []),
  ]);
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
  messages: formMessages({ success: "Message sent successfully!", failed: FAILED, unreachable: FAILED }),
  deliveries: [
    { channel: "personal", messages: personalMessages },
    {
      channel: "webhook",
      target: "WEBHOOK_TEAM_MESSAGE_URL",
      // Exactly the original automation's payload (spec §7).
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
