import type { EstimateRequest } from "./schema";

/** The labels the form shows, in its order: used by the form, the staff email and (later) the inbox. */
export const ESTIMATE_FIELD_LABELS: Record<keyof EstimateRequest, string> = {
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  phone: "Phone",
  city: "City",
  projectType: "Project type",
  formOfContact: "Preferred form of contact",
  bestTime: "Best time to reach you",
  comments: "Comments",
};
