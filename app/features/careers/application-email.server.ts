import { company } from "~/content/company";
import type { EmailBody } from "~/features/deliveries/email-sender.server";
import { fieldTableEmail } from "~/features/deliveries/field-table-email.server";
import { APPLICATION_FIELD_LABELS, APPLICATION_FIELD_ORDER } from "./fields";
import type { Application } from "./schema";

/** Each answer as the person gave it, by the form's label; follow-ups that did not apply are left out. */
function rows(application: Application, resumeName: string | undefined): Array<[string, string]> {
  return APPLICATION_FIELD_ORDER.flatMap((field): Array<[string, string]> => {
    const label = APPLICATION_FIELD_LABELS[field];
    if (field === "resume") return [[label, resumeName ?? "(none sent)"]];
    const value = application[field];
    if (value === undefined) return [];
    if (value === "yes" || value === "no") return [[label, value === "yes" ? "Yes" : "No"]];
    return [[label, String(value)]];
  });
}

/** The applicant's receipt: what they sent, so they have a copy. */
export function applicationReceiptEmail(application: Application, reference: string, resumeName?: string): EmailBody {
  return fieldTableEmail({
    subject: `We received your application (${reference})`,
    intro: `Thank you for applying to ${company.name}, ${application.firstName}. We will be in touch. This is what you sent us.`,
    reference,
    rows: rows(application, resumeName),
  });
}

/** The office's notification of a new application. */
export function applicationNotificationEmail(
  application: Application,
  reference: string,
  resumeName?: string,
): EmailBody {
  return fieldTableEmail({
    subject: `New job application ${reference} from ${application.firstName} ${application.lastName}`,
    intro: `A new job application for ${application.desiredRole} came in through the website.`,
    reference,
    rows: rows(application, resumeName),
    replyTo: application.email,
  });
}
