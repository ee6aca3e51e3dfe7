import type * as z from "zod/mini";
import { date, time } from "~/features/scheduling/calendar-fields";
import { email, formFields, optional, tel, text, textarea } from "~/forms/field-builders";
import { notBeforeToday, tenDigitPhone } from "~/forms/soft-checks";
import { LONG_TEXT_MAX_LENGTH as LONG, SHORT_TEXT_MAX_LENGTH as SHORT } from "~/forms/text-field";

const JOB = "Job Information";
const CONTACT = "Contact Information";
const APPOINTMENT = "Appointment";

/**
 * The internal estimate request in the screen's order (docs/spec.md §2): eight required answers, trimmed (docs/spec.md §5); the
 * appointment is a real date and time. A past appointment or a phone number of fewer than ten digits is allowed (the
 * spec has no such rule), after a second look. One schema for the browser and the server, and its labels.
 */
export const { schema: estimateRequestSchema, fields: estimateRequestFields } = formFields(
  text("jobName", "Job Name", { max: SHORT, section: JOB, autoComplete: "off" }),
  text("jobAddress", "Job Address", { max: SHORT, section: JOB, autoComplete: "street-address" }),
  optional(text("estimateNumber", "Estimate Number", { max: SHORT, section: JOB, autoComplete: "off" })),
  text("contactPerson", "Contact Person", { max: SHORT, section: CONTACT, autoComplete: "off" }),
  tel("phone", "Phone Number", { max: 40, section: CONTACT, autoComplete: "off", softCheck: tenDigitPhone }),
  email("email", "Email Address", { section: CONTACT, autoComplete: "off" }),
  optional(text("customerName", "Customer Name", { max: SHORT, section: CONTACT, autoComplete: "off" })),
  optional(
    text("customerBillingAddress", "Customer Billing Address", { max: SHORT, section: CONTACT, autoComplete: "off" }),
  ),
  textarea("description", "Brief Description of Work Needed", { max: LONG, section: "Work Needed", rows: 3 }),
  date("appointment", "Appointment for estimate", { section: APPOINTMENT, softCheck: notBeforeToday }),
  time("appointmentTime", "Appointment Time", { section: APPOINTMENT }),
  optional(
    text("submittedBy", "Submitted By", { max: SHORT, section: APPOINTMENT, hint: "Name", autoComplete: "name" }),
  ),
  optional(
    textarea("notes", "Notes", {
      max: LONG,
      section: APPOINTMENT,
      rows: 3,
      hint: "Site conditions, lock box code, scheduling info",
    }),
  ),
);

export type EstimateRequestAnswers = z.infer<typeof estimateRequestSchema>;
