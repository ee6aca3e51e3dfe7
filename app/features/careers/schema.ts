import * as z from "zod/mini";
import {
  email,
  field,
  file,
  formFields,
  isoDate,
  optional,
  select,
  tel,
  text,
  textarea,
  yesNo,
} from "~/forms/field-builders";
import { PDF } from "~/forms/file-types";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { textField } from "~/forms/text-field";

export const DESIRED_ROLES = [
  "Helper",
  "Electrician",
  "Lead Electrician",
  "Office Admin",
  "Project Manager",
  "Field Manager",
] as const;

export const EDUCATION_LEVELS = [
  "High School Diploma/GED",
  "Some College",
  "Associate's Degree",
  "Bachelor's Degree",
  "Master's Degree",
  "Trade School",
  "Other",
] as const;

export const RESUME_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_EXPERIENCE_YEARS = 70;

/** The questions whose yes asks one more: each answer is needed only then. */
export const FOLLOW_UPS = [
  ["hasDriversLicense", "licenseNumber"],
  ["hasCriminalBackground", "criminalBackgroundExplanation"],
] as const;

export const RESUME_TOO_LARGE_MESSAGE = "File size should be less than 5MB";
export const RESUME_NOT_PDF_MESSAGE =
  "Your resume must be a PDF file. Please choose a PDF, or send the form without one.";

const SECTIONS = {
  personal: "Personal Information",
  transportation: "Transportation",
  job: "Job Details",
  additional: "Additional Information",
  availability: "Availability",
  background: "Background Information",
} as const;

const application = formFields(
  text("firstName", "First name", { max: 80, section: SECTIONS.personal, autoComplete: "given-name" }),
  text("lastName", "Last name", { max: 80, section: SECTIONS.personal, autoComplete: "family-name" }),
  // The applicant is sent a receipt, so this must be one address, not a list.
  email("email", "Email", { section: SECTIONS.personal, autoComplete: "email" }),
  tel("phone", "Phone", { max: 40, section: SECTIONS.personal, autoComplete: "tel" }),
  text("address", "Address", { max: 200, section: SECTIONS.personal, autoComplete: "address-line1", wide: true }),
  yesNo("hasDriversLicense", "Do you have a driver's license?", { section: SECTIONS.transportation }),
  optional(
    text("licenseNumber", "Driver's license number", {
      max: 40,
      section: SECTIONS.transportation,
      hint: "Needed when you have a driver's license.",
    }),
  ),
  yesNo("hasReliableTransportation", "Do you have reliable transportation?", { section: SECTIONS.transportation }),
  select("desiredRole", "Desired role", DESIRED_ROLES, "Choose a role from the list", { section: SECTIONS.job }),
  text("desiredSalary", "Desired hourly rate", { max: 40, section: SECTIONS.job, hint: "For example $25 an hour." }),
  optional(
    file("resume", "Resume (PDF, at most 5 MB)", PDF, {
      maxBytes: RESUME_MAX_BYTES,
      maxCount: 1,
      messages: { tooLarge: RESUME_TOO_LARGE_MESSAGE, wrongType: RESUME_NOT_PDF_MESSAGE },
      section: SECTIONS.job,
      wide: true,
    }),
  ),
  select("educationLevel", "Highest education level", EDUCATION_LEVELS, "Choose a education level from the list", {
    section: SECTIONS.additional,
  }),
  // Zero years is a real answer (a helper may have none): only a missing value counts as empty.
  field(
    "number",
    "experienceLevel",
    "Years of experience",
    z.pipe(
      z
        .string({ error: REQUIRED_MESSAGE })
        .check(z.trim(), z.regex(/^\d{1,3}$/, "Enter your years of experience as a whole number, such as 0 or 5")),
      z.pipe(
        z.transform(Number),
        z
          .number()
          .check(z.maximum(MAX_EXPERIENCE_YEARS, `Years of experience cannot be above ${MAX_EXPERIENCE_YEARS}`)),
      ),
    ),
    { section: SECTIONS.additional, hint: "Whole years; 0 is fine." },
  ),
  isoDate("desiredStartDate", "Desired start date", { section: SECTIONS.additional }),
  yesNo("isMilitary", "Have you served in the military?", { section: SECTIONS.additional }),
  textarea("certifications", "Certifications", {
    max: 1000,
    section: SECTIONS.additional,
    rows: 3,
    wide: true,
    hint: 'List your licenses and certifications, or write "None".',
  }),
  textarea("vocationalTraining", "Vocational training", {
    max: 1000,
    section: SECTIONS.additional,
    rows: 3,
    wide: true,
    hint: 'Apprenticeships, trade or vocational school, or write "None".',
  }),
  yesNo("willingToTravel", "Are you willing to travel?", { section: SECTIONS.availability }),
  yesNo("willingToWorkOvertime", "Are you willing to work overtime?", { section: SECTIONS.availability }),
  yesNo("willingToWorkNightsWeekends", "Are you willing to work nights and weekends?", {
    section: SECTIONS.availability,
  }),
  yesNo("hasCriminalBackground", "Do you have a criminal background?", { section: SECTIONS.background }),
  optional(
    // Its messages name it "Explanation", not by its whole question.
    field(
      "textarea",
      "criminalBackgroundExplanation",
      "Please explain your criminal background",
      textField("Explanation", 2000),
      {
        section: SECTIONS.background,
        rows: 3,
        wide: true,
        hint: "Needed when you answered yes.",
      },
    ),
  ),
);

/** The application's questions in the spec's order: the one source of their labels and of the webhook's order. */
export const applicationFields = application.fields;

export type ApplicationFieldName = (typeof applicationFields)[number]["name"];

/** The job application: one schema for the browser and the server. */
export const applicationSchema = application.schema.check(
  // Runs even when other answers are missing, so every missing field is marked at once.
  z.superRefine(
    (application, context) => {
      if (typeof application !== "object" || application === null) return;
      for (const [question, answer] of FOLLOW_UPS) {
        if (application[question] === "yes" && !application[answer]) {
          context.addIssue({ code: "custom", path: [answer], message: REQUIRED_MESSAGE, input: undefined });
        }
      }
    },
    { when: () => true },
  ),
);

export type Application = z.infer<typeof applicationSchema>;

/** The answers without a follow-up whose question ended up "no" (typed in before the answer changed). */
export function withoutUnusedFollowUps(application: Application): Application {
  return {
    ...application,
    licenseNumber: application.hasDriversLicense === "yes" ? application.licenseNumber : undefined,
    criminalBackgroundExplanation:
      application.hasCriminalBackground === "yes" ? application.criminalBackgroundExplanation : undefined,
  };
}
