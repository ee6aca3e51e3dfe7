import { fieldTableEmail } from "~/outbox/field-table-email.server";
import { messageEmail } from "~/outbox/message-email.server";
import type { PushBody } from "~/outbox/push-sender.server";
import type { DevicePushes, OutgoingDelivery } from "~/outbox/submission-store.server";
import type { Config } from "~/services/config.server";
import { appointmentInvite } from "./appointment-calendar.server";
import { type AnyFormDefinition, rolesThatMayRead, type StoredSubmissionFacts } from "./definition";
import { callableNumber, notificationAnswers } from "./notification-text";
import { officeEmail } from "./office-email";
import { answerRows } from "./print-answer";
import { isQuietTime } from "./quiet-hours";

/**
 * The deliveries a submission makes, from its definition: one per webhook whose setting is set, one per
 * email that has an address (and a mail server to go through), one per personal email or text whose channel is
 * configured, and a text to a phone setting that is set. Built once, when it is stored. Pushes to staff devices
 * are devicePushes'.
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
    if (delivery.channel === "push") return [];
    if (delivery.channel === "sms") {
      const to = config.TWILIO_ACCOUNT_SID ? config[delivery.target] : undefined;
      if (!to) return [];
      const text = delivery.text(notificationAnswers(definition.fields, payload), stored);
      return [{ channel: "sms", target: delivery.target, destination: to, body: { text } }];
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

/**
 * The push a new submission makes to the staff devices that chose its form and whose people may read it, or none:
 * its form declares none, or it is quiet hours (NEW_LEAD_QUIET_HOURS), when only the on-call text goes. Its
 * words quote the answers as plain capped lines, and its Call action rings only a valid number.
 */
export function devicePushes(
  definition: AnyFormDefinition,
  payload: Record<string, unknown>,
  config: Pick<Config, "NEW_LEAD_QUIET_HOURS">,
  now: Date,
): DevicePushes | undefined {
  const push = definition.deliveries.find((delivery) => delivery.channel === "push");
  if (!push || isQuietTime(config.NEW_LEAD_QUIET_HOURS, now)) return undefined;
  const answers = notificationAnswers(definition.fields, payload);
  const call = callableNumber(push.call?.(payload));
  const body: PushBody = { title: push.title(answers), body: push.body?.(answers) ?? "", ...(call ? { call } : {}) };
  return { formType: definition.type, roles: rolesThatMayRead(definition), body };
}
