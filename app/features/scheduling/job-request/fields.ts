import type { FieldDefinition } from "~/forms/definition";

const JOB = "Job Information";
const CONTACT = "Contact Information";

/** The job request's questions in the screen's order (spec §2): the one source of their labels. */
export const jobRequestFields = [
  { name: "jobName", label: "Job Name", kind: "text", section: JOB, autoComplete: "off" },
  { name: "jobAddress", label: "Job Address", kind: "text", section: JOB, autoComplete: "street-address" },
  {
    name: "estimateOpportunityNumber",
    label: "Estimate Opportunity Number",
    kind: "text",
    section: JOB,
    optional: true,
    autoComplete: "off",
  },
  { name: "jobSummary", label: "Job Summary", kind: "textarea", section: JOB, optional: true, rows: 3 },
  { name: "appointmentForJob", label: "Appointment for Job", kind: "date", section: JOB, optional: true },
  {
    name: "projectTotalAmount",
    label: "Project Total Amount",
    kind: "money",
    section: JOB,
    optional: true,
    placeholder: "$0.00",
    autoComplete: "off",
  },
  {
    name: "contactPerson",
    label: "Contact Person",
    kind: "text",
    section: CONTACT,
    optional: true,
    autoComplete: "off",
  },
  { name: "phone", label: "Phone Number", kind: "tel", section: CONTACT, optional: true, autoComplete: "off" },
  { name: "email", label: "Email Address", kind: "email", section: CONTACT, optional: true, autoComplete: "off" },
  { name: "notes", label: "Notes", kind: "textarea", section: CONTACT, optional: true, rows: 3 },
] as const satisfies readonly FieldDefinition[];
