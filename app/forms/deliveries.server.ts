import { fieldTableEmail } from "~/outbox/field-table-email.server";
import { messageEmail } from "~/outbox/message-email.server";
import type { OutgoingDelivery } from "~/outbox/submission-store.server";
import type { Config } from "~/server/config.server";
import { appointmentInvite } from "./appointment-calendar.server";
import type { AnyFormDefinition, StoredSubmissionFacts } from "./definition";
import { officeEmail } from "./office-email";
import { answerRows } from "./print-answer";

/**
 * The deliveries a submission makes, from its definition: one per webhook whose setting is set, one per
 * email that has an address (and a mail server to go through), and one per personal email or text whose
 * channel is configured. Built once, when it is stored.
 */
export function outgoingDeliveries(
  definition: AnyFormDefinition,
  payload: Record<string, unknown>,
  stored: StoredSubmissionFacts,
  config: Config,
): OutgoingDelivery[] {
  return definition.deliveries.flatMap((delivery): OutgoingDelivery[] => {
    if (delivery.channel === "webhook") {
      const url = config[delivery.target];
      if (!url) return [];
      return [
        {
          channel: "webhook",
          target: delivery.target,
          destination: url,
          body: delivery.body(payload, stored),
          bodyFormat: delivery.format ?? "json",
        },
      ];
    }
    if (delivery.channel === "personal") {
      return delivery.messages(payload, stored).flatMap((message): OutgoingDelivery[] => {
        if (message.channel === "email") {
          if (!config.SMTP_URL) return [];
          const body = messageEmail({ subject: message.subject, text: message.text });
          return [{ channel: "email", target: message.name, destination: message.to, body }];
        }
        if (!config.TWILIO_ACCOUNT_SID) return [];
        return [{ channel: "sms", target: message.name, destination: message.to, body: { text: message.text } }];
      });
    }
    const to = config.SMTP_URL ? delivery.to(payload, config) : undefined;
    if (!to) return [];
    const body = fieldTableEmail({
      subject: delivery.subject(payload, stored.reference),
      intro: delivery.intro(payload),
      reference: stored.reference,
      rows: delivery.rows?.(payload) ?? answerRows(definition, payload, stored.files),
      replyTo: delivery.replyTo?.(payload, config),
    });
    const attachStoredFiles = delivery.attachStoredFiles ? [...delivery.attachStoredFiles] : undefined;
    const event = delivery.sendsInvite ? definition.calendarEvent?.(payload) : undefined;
    const icalEvent = event && {
      method: "REQUEST",
      filename: "invite.ics",
      content: appointmentInvite(event, {
        reference: stored.reference,
        organizer: officeEmail(config),
        attendee: to,
      }),
    };
    return [
      {
        channel: "email",
        target: delivery.target,
        destination: to,
        body: { ...body, ...(attachStoredFiles ? { attachStoredFiles } : {}), ...(icalEvent ? { icalEvent } : {}) },
        ...(delivery.dailyLimitPerRecipient === undefined
          ? {}
          : { dailyLimitPerRecipient: delivery.dailyLimitPerRecipient }),
      },
    ];
  });
}
