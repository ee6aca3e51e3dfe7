import type { Application } from "./schema";

/** The labels the form shows, in the order of its fields: used by the form, the emails and (later) the inbox. */
export const APPLICATION_FIELD_LABELS: Record<keyof Application, string> = {
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  hasDriversLicense: "Do you have a driver's license?",
  licenseNumber: "Driver's license number",
  hasReliableTransportation: "Do you have reliable transportation?",
  desiredRole: "Desired role",
  desiredSalary: "Desired hourly rate",
  resume: "Resume (PDF, at most 5 MB)",
  educationLevel: "Highest education level",
  experienceLevel: "Years of experience",
  desiredStartDate: "Desired start date",
  isMilitary: "Have you served in the military?",
  certifications: "Certifications",
  vocationalTraining: "Vocational training",
  willingToTravel: "Are you willing to travel?",
  willingToWorkOvertime: "Are you willing to work overtime?",
  willingToWorkNightsWeekends: "Are you willing to work nights and weekends?",
  hasCriminalBackground: "Do you have a criminal background?",
  criminalBackgroundExplanation: "Please explain your criminal background",
};

/** The spec's field order: the multipart webhook and the emails list the fields in it. */
export const APPLICATION_FIELD_ORDER = Object.keys(APPLICATION_FIELD_LABELS) as Array<keyof Application>;
