import * as z from "zod/mini";
import { calendarDate, clockTime } from "~/features/scheduling/calendar-fields";
import {
  emailAddress,
  LONG_TEXT_MAX_LENGTH,
  optionalTextField,
  SHORT_TEXT_MAX_LENGTH,
  textField,
} from "~/forms/text-field";

/**
 * The internal estimate request (spec §3): eight required answers, trimmed (spec §5); the appointment is a
 * real date and time. One schema for the browser and the server.
 */
export const estimateRequestSchema = z.object({
  jobName: textField("Job Name", SHORT_TEXT_MAX_LENGTH),
  jobAddress: textField("Job Address", SHORT_TEXT_MAX_LENGTH),
  estimateNumber: optionalTextField("Estimate Number", SHORT_TEXT_MAX_LENGTH),
  contactPerson: textField("Contact Person", SHORT_TEXT_MAX_LENGTH),
  phone: textField("Phone Number", 40),
  email: emailAddress("Email Address"),
  customerName: optionalTextField("Customer Name", SHORT_TEXT_MAX_LENGTH),
  customerBillingAddress: optionalTextField("Customer Billing Address", SHORT_TEXT_MAX_LENGTH),
  description: textField("Brief Description of Work Needed", LONG_TEXT_MAX_LENGTH),
  appointment: calendarDate("Appointment for estimate"),
  appointmentTime: clockTime("Appointment Time"),
  submittedBy: optionalTextField("Submitted By", SHORT_TEXT_MAX_LENGTH),
  notes: optionalTextField("Notes", LONG_TEXT_MAX_LENGTH),
});

export type EstimateRequestAnswers = z.infer<typeof estimateRequestSchema>;
