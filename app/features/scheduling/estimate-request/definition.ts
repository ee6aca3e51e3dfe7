import { APPOINTMENT_CANCELLED_STATUSES, APPOINTMENT_STATUSES } from "~/features/scheduling/appointment-statuses";
import type { FormActionResult, FormReply } from "~/forms/action-result";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { officeEmail } from "~/forms/office-email";
import { type EstimateRequestAnswers, estimateRequestFields, estimateRequestSchema } from "./schema";

/** The internal estimate request at /admin/quick-links/estimate-request: office staff hand a visit to a PM. */
export const estimateRequestForm = defineForm({
  type: "estimate-request",
  label: "Internal estimate request",
  referencePrefix: "ERQ",
  audience: "staff",
  statuses: APPOINTMENT_STATUSES,
  cancelledStatuses: APPOINTMENT_CANCELLED_STATUSES,
  schema: estimateRequestSchema,
  fields: estimateRequestFields,
  contact: (request: EstimateRequestAnswers) => ({
    name: request.contactPerson,
    email: request.email,
    phone: request.phone,
  }),
  searchTerms: (request) => `${request.jobName} ${request.jobAddress}`,
  maxBodyBytes: 64 * 1024,
  // Spec §8's words.
  messages: formMessages({
    success: "Your estimate request has been submitted successfully!",
    failed: "There was an error submitting your request. Please try again.",
    unreachable: "There was an error submitting your request. Please try again.",
  }),
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_ESTIMATE_INTERNAL_URL",
      receives: "internal estimate requests",
      // Exactly the thirteen fields of docs/spec.md §3, all strings, empty when not given.
      body: (request) => ({
        jobName: request.jobName,
        jobAddress: request.jobAddress,
        contactPerson: request.contactPerson,
        phone: request.phone,
        email: request.email,
        description: request.description,
        appointment: request.appointment,
        appointmentTime: request.appointmentTime,
        customerName: request.customerName ?? "",
        customerBillingAddress: request.customerBillingAddress ?? "",
        estimateNumber: request.estimateNumber ?? "",
        submittedBy: request.submittedBy ?? "",
        notes: request.notes ?? "",
      }),
    },
    {
      channel: "email",
      target: "ESTIMATE_SCHEDULER_EMAIL",
      to: (_request, config) => config.ESTIMATE_SCHEDULER_EMAIL,
      subject: (request, reference) => `Estimate appointment ${reference}: ${request.jobName}`,
      intro: (request) =>
        `${request.submittedBy || "The office"} asks for an estimate visit. The calendar invite is attached.`,
      replyTo: (_request, config) => officeEmail(config),
      sendsInvite: true,
    },
  ],
  calendarEvent: (request) => ({
    title: request.jobName,
    location: request.jobAddress,
    date: request.appointment,
    time: request.appointmentTime,
    description: request.description,
    contactPerson: request.contactPerson,
    contactPhone: request.phone,
    notes: request.notes,
  }),
});

export type EstimateRequestActionResult = FormActionResult<{ result: FormReply }>;
