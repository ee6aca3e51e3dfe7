import * as z from "zod/mini";
import { calendarDate, dollarAmount } from "~/features/scheduling/calendar-fields";
import {
  emailAddress,
  LONG_TEXT_MAX_LENGTH,
  optionalTextField,
  SHORT_TEXT_MAX_LENGTH,
  textField,
} from "~/forms/text-field";

/**
 * The job request (spec §3): the job's name and address are required after trimming (spec §5), everything else
 * may be left empty; a date must be a real one and the amount an amount. One schema for browser and server.
 */
export const jobRequestSchema = z.object({
  jobName: textField("Job Name", SHORT_TEXT_MAX_LENGTH),
  jobAddress: textField("Job Address", SHORT_TEXT_MAX_LENGTH),
  estimateOpportunityNumber: optionalTextField("Estimate Opportunity Number", SHORT_TEXT_MAX_LENGTH),
  jobSummary: optionalTextField("Job Summary", LONG_TEXT_MAX_LENGTH),
  appointmentForJob: z.optional(calendarDate("Appointment for Job")),
  projectTotalAmount: z.optional(dollarAmount("Project Total Amount")),
  contactPerson: optionalTextField("Contact Person", SHORT_TEXT_MAX_LENGTH),
  phone: optionalTextField("Phone Number", 40),
  email: z.optional(emailAddress("Email Address")),
  notes: optionalTextField("Notes", LONG_TEXT_MAX_LENGTH),
});

export type JobRequestAnswers = z.infer<typeof jobRequestSchema>;
