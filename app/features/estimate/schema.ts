import * as z from "zod/mini";
import { optionalTextField, REQUIRED_MESSAGE, singleLineEmail, textField } from "~/forms/text-field";

export const PROJECT_TYPES = ["residential", "commercial"] as const;

/** The public free-estimate request: one schema for the browser and the server. */
export const estimateSchema = z.object({
  firstName: textField("First name", 80),
  lastName: textField("Last name", 80),
  email: singleLineEmail(textField("Email", 254)),
  phone: textField("Phone", 40),
  city: textField("City", 80),
  projectType: z.enum(PROJECT_TYPES, {
    error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Choose residential or commercial"),
  }),
  formOfContact: textField("Preferred form of contact", 60),
  bestTime: textField("Best time to reach you", 60),
  comments: optionalTextField("Comments", 2000),
});

export type EstimateRequest = z.infer<typeof estimateSchema>;
