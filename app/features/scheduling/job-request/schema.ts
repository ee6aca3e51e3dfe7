import type * as z from "zod/mini";
import { date, money } from "~/features/scheduling/calendar-fields";
import { email, formFields, optional, tel, text, textarea } from "~/forms/field-builders";
import { notBeforeToday, tenDigitPhone } from "~/forms/soft-checks";
import { LONG_TEXT_MAX_LENGTH as LONG, SHORT_TEXT_MAX_LENGTH as SHORT } from "~/forms/text-field";

const JOB = "Job Information";
const CONTACT = "Contact Information";

/**
 * The job request in the screen's order (docs/spec.md §2): the job's name and address are required after trimming
 * (docs/spec.md §5), everything else may be left empty; a date must be a real one and the amount an amount. A past
 * appointment or a short phone number is allowed after a second look. One schema
 * for browser and server, and its labels.
 */
export const { schema: jobRequestSchema, fields: jobRequestFields } = formFields(
  text("jobName", "Job Name", { max: SHORT, section: JOB, autoComplete: "off" }),
  text("jobAddress", "Job Address", { max: SHORT, section: JOB, autoComplete: "street-address" }),
  optional(
    text("estimateOpportunityNumber", "Estimate Opportunity Number", { max: SHORT, section: JOB, autoComplete: "off" }),
  ),
  optional(textarea("jobSummary", "Job Summary", { max: LONG, section: JOB, rows: 3 })),
  optional(date("appointmentForJob", "Appointment for Job", { section: JOB, softCheck: notBeforeToday })),
  optional(
    money("projectTotalAmount", "Project Total Amount", { section: JOB, placeholder: "$0.00", autoComplete: "off" }),
  ),
  optional(text("contactPerson", "Contact Person", { max: SHORT, section: CONTACT, autoComplete: "off" })),
  optional(tel("phone", "Phone Number", { max: 40, section: CONTACT, autoComplete: "off", softCheck: tenDigitPhone })),
  optional(email("email", "Email Address", { section: CONTACT, autoComplete: "off" })),
  optional(textarea("notes", "Notes", { max: LONG, section: CONTACT, rows: 3 })),
);

export type JobRequestAnswers = z.infer<typeof jobRequestSchema>;
