import { APPOINTMENT_CANCELLED_STATUSES, APPOINTMENT_STATUSES } from "~/features/scheduling/appointment-statuses";
import type { FormActionResult, FormReply } from "~/forms/action-result";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { officeEmail } from "~/forms/office-email";
import { textAnswers } from "~/forms/text-answers";
import { type JobRequestAnswers, jobRequestFields, jobRequestSchema } from "./schema";

/** The job request at /admin/quick-links/job-request: a sold job handed on to be scheduled. */
export const jobRequestForm = defineForm({
  type: "job-request",
  label: "Job request",
  referencePrefix: "JOB",
  audience: "staff",
  statuses: APPOINTMENT_STATUSES,
  cancelledStatuses: APPOINTMENT_CANCELLED_STATUSES,
  schema: jobRequestSchema,
  fields: jobRequestFields,
  contact: (request: JobRequestAnswers) => ({
    name: request.contactPerson ?? "",
    email: request.email ?? "",
    phone: request.phone ?? "",
  }),
  searchTerms: (request) => `${request.jobName} ${request.jobAddress}`,
  maxBodyBytes: 64 * 1024,
  // Spec §8's words.
  messages: formMessages({
    success: "Your job request has been submitted successfully!",
    failed: "There was an error submitting your request. Please try again.",
    unreachable: "There was an error submitting your request. Please try again.",
  }),
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_JOB_REQUEST_URL",
      receives: "job requests",
      // Exactly the ten fields of docs/spec.md §3, all strings, empty when not given; the amount as 12500.50.
      body: (request) => textAnswers(jobRequestFields, request),
    },
    {
      channel: "push",
      title: (request) => `New job request: ${request.jobName}, ${request.jobAddress}`,
      call: (request) => request.phone,
    },
    {
      channel: "email",
      target: "ESTIMATE_SCHEDULER_EMAIL",
      to: (_request, config) => config.ESTIMATE_SCHEDULER_EMAIL,
      subject: (request, reference) => `Job request ${reference}: ${request.jobName}`,
      intro: (request) =>
        request.appointmentForJob
          ? "A job request came in. The calendar invite for its day is attached."
          : "A job request came in, without an appointment date yet.",
      replyTo: (_request, config) => officeEmail(config),
      sendsInvite: true,
    },
  ],
  // The job request has a date and no time: an all-day event.
  calendarEvent: (request) =>
    request.appointmentForJob
      ? {
          title: request.jobName,
          location: request.jobAddress,
          date: request.appointmentForJob,
          description: request.jobSummary,
          contactPerson: request.contactPerson,
          contactPhone: request.phone,
          notes: request.notes,
        }
      : undefined,
});

export type JobRequestActionResult = FormActionResult<{ result: FormReply }>;
