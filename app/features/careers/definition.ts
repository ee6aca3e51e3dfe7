import { publishedCompanyName } from "~/content/published-company";
import type { FormActionResult } from "~/forms/action-result";
import { defineForm, type StoredSubmissionFacts } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { officeEmail } from "~/forms/office-email";
import type { MultipartBody } from "~/outbox/multipart-body";
import { type Application, type ApplicationFieldName, applicationFields, applicationSchema } from "./schema";

export const APPLICATION_STATUS = {
  received: "Received",
  reviewing: "Reviewing",
  interview: "Interview",
  hired: "Hired",
  rejected: "Rejected",
} as const;

/** What is stored of an application: every answer; the resume is stored as a file beside it. */
export type StoredApplication = Omit<Application, "resume">;

/**
 * The original posted every field as multipart/form-data to a primary and a secondary webhook, the resume
 * only when one was chosen. Here each is its own delivery, retried on its own.
 */
function applicationMultipartBody(application: StoredApplication, stored: StoredSubmissionFacts): MultipartBody {
  return {
    parts: applicationFields.flatMap((field): MultipartBody["parts"] => {
      if (field.kind === "file") {
        const sent = stored.files.some((file) => file.fieldName === field.name);
        return sent ? [{ name: field.name, storedFiles: true }] : [];
      }
      const name = field.name as Exclude<ApplicationFieldName, "resume">;
      return [{ name, value: String(application[name] ?? "") }];
    }),
  };
}

/** The job application at /apply. */
/** A person applies once or twice; more receipts than this to one address in a day are someone else's doing. */
const APPLICANT_RECEIPTS_PER_ADDRESS_PER_DAY = 3;

export const applicationForm = defineForm({
  type: "application",
  exportableBy: "admin",
  label: "Job application",
  referencePrefix: "APP",
  audience: "public",
  statuses: [
    APPLICATION_STATUS.received,
    APPLICATION_STATUS.reviewing,
    APPLICATION_STATUS.interview,
    APPLICATION_STATUS.hired,
    APPLICATION_STATUS.rejected,
  ],
  schema: applicationSchema,
  fields: applicationFields,
  contact: (application: StoredApplication) => ({
    name: `${application.firstName} ${application.lastName}`.trim(),
    email: application.email,
    phone: application.phone,
  }),
  // A rejected applicant's resume is not kept for long.
  fileRetention: { afterStatus: APPLICATION_STATUS.rejected },
  // Room for a resume somewhat over its cap, with the text answers and multipart headers: such a resume is read,
  // left out and refused beside its field, and the other answers go back to the page (with or without scripts).
  maxBodyBytes: 8 * 1024 * 1024 + 64 * 1024,
  messages: formMessages({
    missing: "Please fill in all required fields",
    success: "Application submitted successfully!",
    failed: "There was an error submitting your application. Please try again.",
    offline:
      "The connection was lost, so your application was not sent. Your answers and your resume are still here: send it again when you are back online.",
    unreachable:
      "We could not confirm that your application arrived. Your answers and your resume are still here: sending again is safe, it will not be stored twice.",
    rateLimited: "Too many applications from your connection. Please wait a few minutes and try again.",
    tooLarge: "The application is too large to send. Please shorten your answers or choose a smaller resume.",
  }),
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_APPLICATION_URL",
      receives: "job applications",
      format: "multipart",
      body: applicationMultipartBody,
    },
    {
      channel: "webhook",
      target: "WEBHOOK_APPLICATION_SECONDARY_URL",
      receives: "job applications (second target)",
      format: "multipart",
      body: applicationMultipartBody,
    },
    {
      channel: "email",
      target: "APPLICANT_RECEIPT",
      to: (application, config) => (config.MAIL_FROM ? application.email : undefined),
      subject: (_application, reference) => `We received your application (${reference})`,
      // Fixed words only: anyone can type any address here, so nothing typed into the form goes back out.
      intro: () => `Thank you for your application to ${publishedCompanyName()}; we will be in touch.`,
      rows: () => [],
      replyTo: (_application, config) => officeEmail(config),
      dailyLimitPerRecipient: APPLICANT_RECEIPTS_PER_ADDRESS_PER_DAY,
    },
    {
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      to: (_application, config) => config.STAFF_NOTIFY_EMAIL,
      subject: (application, reference) =>
        `New job application ${reference} from ${application.firstName} ${application.lastName}`,
      intro: (application) => `A new job application for ${application.desiredRole} came in through the website.`,
      replyTo: (application) => application.email,
    },
    {
      channel: "push",
      title: (application) =>
        `New job application: ${application.firstName} ${application.lastName}, ${application.desiredRole}`,
      call: (application) => application.phone,
    },
  ],
});

export type ApplicationActionResult = FormActionResult;
