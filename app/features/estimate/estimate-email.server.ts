import type { EmailBody } from "~/features/deliveries/email-sender.server";
import { fieldTableEmail } from "~/features/deliveries/field-table-email.server";
import { ESTIMATE_FIELD_LABELS } from "./fields";
import type { EstimateRequest } from "./schema";

/** The office's notification of a new estimate request. */
export function estimateNotificationEmail(request: EstimateRequest, reference: string): EmailBody {
  return fieldTableEmail({
    subject: `New estimate request ${reference} from ${request.firstName} ${request.lastName}`,
    intro: "A new estimate request came in through the website.",
    reference,
    rows: Object.entries(ESTIMATE_FIELD_LABELS).map(([field, label]) => [
      label,
      request[field as keyof EstimateRequest] || "(not given)",
    ]),
    replyTo: request.email,
  });
}
