import type { FormActionResult, FormReply } from "~/forms/action-result";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { textAnswers } from "~/forms/text-answers";
import { type EstimateRequest, estimateFields, estimateSchema } from "./schema";

export const ESTIMATE_STATUS = {
  new: "New",
  contacted: "Contacted",
  scheduled: "Scheduled",
  won: "Won",
  lost: "Lost",
  archived: "Archived",
} as const;

/** The public free-estimate request, on the about page and every service page. */
export const estimateForm = defineForm({
  type: "estimate",
  label: "Estimate request",
  referencePrefix: "EST",
  audience: "public",
  statuses: [
    ESTIMATE_STATUS.new,
    ESTIMATE_STATUS.contacted,
    ESTIMATE_STATUS.scheduled,
    ESTIMATE_STATUS.won,
    ESTIMATE_STATUS.lost,
    ESTIMATE_STATUS.archived,
  ],
  schema: estimateSchema,
  fields: estimateFields,
  contact: (request: EstimateRequest) => ({
    name: `${request.firstName} ${request.lastName}`.trim(),
    email: request.email,
    phone: request.phone,
  }),
  maxBodyBytes: 64 * 1024,
  messages: formMessages({ missing: "Please enter all fields" }),
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_ESTIMATE_URL",
      receives: "public estimate requests",
      // Exactly the nine fields of the original automation payload (docs/spec.md §7).
      body: (request) => textAnswers(estimateFields, request),
    },
    {
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      to: (_request, config) => config.STAFF_NOTIFY_EMAIL,
      subject: (request, reference) =>
        `New estimate request ${reference} from ${request.firstName} ${request.lastName}`,
      intro: () => "A new estimate request came in through the website.",
      replyTo: (request) => request.email,
    },
    {
      channel: "push",
      title: (request) =>
        `New estimate request: ${request.firstName} ${request.lastName}, ${request.city}, ${request.projectType}`,
      body: (request) => `Prefers ${request.formOfContact}, ${request.bestTime}`,
      call: (request) => request.phone,
      onByDefaultFor: "admin",
    },
    {
      channel: "sms",
      target: "NEW_LEAD_SMS_TO",
      text: (request, stored) =>
        `New estimate request ${stored.reference}: ${request.firstName} ${request.lastName}, ${request.city}, ${request.projectType}. ${request.phone ? `Call ${request.phone}.` : "No number to call: see the inbox."}`,
    },
  ],
});

/** The page needs the project type for its success text; the form keeps its values (docs/spec.md §4). */
export type EstimateActionResult = FormActionResult<{ projectType: EstimateRequest["projectType"]; result: FormReply }>;
