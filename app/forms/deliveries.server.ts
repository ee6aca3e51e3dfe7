import { fieldTableEmail } from "~/features/deliveries/field-table-email.server";
import type { OutgoingDelivery } from "~/features/deliveries/submission-store.server";
import type { Config } from "~/server/config.server";
import type { AnyFormDefinition, StoredSubmissionFacts } from "./definition";
import { answerRows } from "./print-answer";

/**
 * The deliveries a submission makes, from its definition: one per webhook whose setting is set, and one per
 * email that has an address (and a mail server to go through). Built once, when it is stored.
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
    const to = config.SMTP_URL ? delivery.to(payload, config) : undefined;
    if (!to) return [];
    const body = fieldTableEmail({
      subject: delivery.subject(payload, stored.reference),
      intro: delivery.intro(payload),
      reference: stored.reference,
      rows: delivery.rows?.(payload) ?? answerRows(definition, payload, stored.files),
      replyTo: delivery.replyTo?.(payload),
    });
    const attachStoredFiles = delivery.attachStoredFiles ? [...delivery.attachStoredFiles] : undefined;
    return [
      {
        channel: "email",
        target: delivery.target,
        destination: to,
        body: attachStoredFiles ? { ...body, attachStoredFiles } : body,
      },
    ];
  });
}
