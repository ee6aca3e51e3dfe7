import type { FieldDefinition } from "~/forms/definition";
import { DESIRED_ROLES, EDUCATION_LEVELS } from "./schema";

const SECTIONS = {
  personal: "Personal Information",
  transportation: "Transportation",
  job: "Job Details",
  additional: "Additional Information",
  availability: "Availability",
  background: "Background Information",
} as const;

const listed = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The application's questions in the spec's order: the one source of their labels and of the webhook's order. */
export const applicationFields = [
  { name: "firstName", label: "First name", kind: "text", section: SECTIONS.personal, autoComplete: "given-name" },
  { name: "lastName", label: "Last name", kind: "text", section: SECTIONS.personal, autoComplete: "family-name" },
  { name: "email", label: "Email", kind: "email", section: SECTIONS.personal, autoComplete: "email" },
  { name: "phone", label: "Phone", kind: "tel", section: SECTIONS.personal, autoComplete: "tel" },
  {
    name: "address",
    label: "Address",
    kind: "text",
    section: SECTIONS.personal,
    autoComplete: "address-line1",
    wide: true,
  },
  {
    name: "hasDriversLicense",
    label: "Do you have a driver's license?",
    kind: "yesNo",
    section: SECTIONS.transportation,
  },
  {
    name: "licenseNumber",
    label: "Driver's license number",
    kind: "text",
    section: SECTIONS.transportation,
    optional: true,
    hint: "Needed when you have a driver's license.",
  },
  {
    name: "hasReliableTransportation",
    label: "Do you have reliable transportation?",
    kind: "yesNo",
    section: SECTIONS.transportation,
  },
  {
    name: "desiredRole",
    label: "Desired role",
    kind: "select",
    section: SECTIONS.job,
    options: listed(DESIRED_ROLES),
  },
  {
    name: "desiredSalary",
    label: "Desired hourly rate",
    kind: "text",
    section: SECTIONS.job,
    hint: "For example $25 an hour.",
  },
  {
    name: "resume",
    label: "Resume (PDF, at most 5 MB)",
    kind: "file",
    section: SECTIONS.job,
    optional: true,
    wide: true,
  },
  {
    name: "educationLevel",
    label: "Highest education level",
    kind: "select",
    section: SECTIONS.additional,
    options: listed(EDUCATION_LEVELS),
  },
  {
    name: "experienceLevel",
    label: "Years of experience",
    kind: "number",
    section: SECTIONS.additional,
    hint: "Whole years; 0 is fine.",
  },
  { name: "desiredStartDate", label: "Desired start date", kind: "date", section: SECTIONS.additional },
  { name: "isMilitary", label: "Have you served in the military?", kind: "yesNo", section: SECTIONS.additional },
  {
    name: "certifications",
    label: "Certifications",
    kind: "textarea",
    section: SECTIONS.additional,
    rows: 3,
    wide: true,
    hint: 'List your licenses and certifications, or write "None".',
  },
  {
    name: "vocationalTraining",
    label: "Vocational training",
    kind: "textarea",
    section: SECTIONS.additional,
    rows: 3,
    wide: true,
    hint: 'Apprenticeships, trade or vocational school, or write "None".',
  },
  { name: "willingToTravel", label: "Are you willing to travel?", kind: "yesNo", section: SECTIONS.availability },
  {
    name: "willingToWorkOvertime",
    label: "Are you willing to work overtime?",
    kind: "yesNo",
    section: SECTIONS.availability,
  },
  {
    name: "willingToWorkNightsWeekends",
    label: "Are you willing to work nights and weekends?",
    kind: "yesNo",
    section: SECTIONS.availability,
  },
  {
    name: "hasCriminalBackground",
    label: "Do you have a criminal background?",
    kind: "yesNo",
    section: SECTIONS.background,
  },
  {
    name: "criminalBackgroundExplanation",
    label: "Please explain your criminal background",
    kind: "textarea",
    section: SECTIONS.background,
    optional: true,
    rows: 3,
    wide: true,
    hint: "Needed when you answered yes.",
  },
] as const satisfies readonly FieldDefinition[];

export type ApplicationFieldName = (typeof applicationFields)[number]["name"];
