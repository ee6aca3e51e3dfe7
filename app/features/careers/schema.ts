import * as z from "zod/mini";
import { emailAddress, REQUIRED_MESSAGE, textField } from "~/forms/text-field";

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

export const YES_NO = ["yes", "no"] as const;

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

const yesNo = z.enum(YES_NO, {
  error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Choose yes or no"),
});

const choice = <const Options extends readonly [string, ...string[]]>(options: Options, label: string) =>
  z.enum(options, {
    error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : `Choose a ${label} from the list`),
  });

/** A PDF of at most 5 MB, judged in the browser by its type; the server also reads its first bytes. */
const resumeFile = z
  .file()
  .check(z.maxSize(RESUME_MAX_BYTES, RESUME_TOO_LARGE_MESSAGE), z.mime(["application/pdf"], RESUME_NOT_PDF_MESSAGE));

/** The job application: one schema for the browser and the server. */
export const applicationSchema = z
  .object({
    firstName: textField("First name", 80),
    lastName: textField("Last name", 80),
    // The applicant is sent a receipt, so this must be one address, not a list.
    email: emailAddress("Email"),
    phone: textField("Phone", 40),
    address: textField("Address", 200),
    hasDriversLicense: yesNo,
    licenseNumber: z.optional(textField("Driver's license number", 40)),
    hasReliableTransportation: yesNo,
    desiredRole: choice(DESIRED_ROLES, "role"),
    desiredSalary: textField("Desired hourly rate", 40),
    resume: z.optional(resumeFile),
    educationLevel: choice(EDUCATION_LEVELS, "education level"),
    // Zero years is a real answer (a helper may have none): only a missing value counts as empty.
    experienceLevel: z.pipe(
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
    desiredStartDate: z.iso.date({ error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Enter a date") }),
    isMilitary: yesNo,
    certifications: textField("Certifications", 1000),
    vocationalTraining: textField("Vocational training", 1000),
    willingToTravel: yesNo,
    willingToWorkOvertime: yesNo,
    willingToWorkNightsWeekends: yesNo,
    hasCriminalBackground: yesNo,
    criminalBackgroundExplanation: z.optional(textField("Explanation", 2000)),
  })
  .check(
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
