import type * as z from "zod/mini";
import { emailText, formFields, optional, radio, tel, text, textarea } from "~/forms/field-builders";

/** The public free-estimate request, in its order: one schema for the browser and the server, and its labels. */
export const { schema: estimateSchema, fields: estimateFields } = formFields(
  text("firstName", "First name", { max: 80, autoComplete: "given-name" }),
  text("lastName", "Last name", { max: 80, autoComplete: "family-name" }),
  emailText("email", "Email", { max: 254, autoComplete: "email" }),
  tel("phone", "Phone", { max: 40, autoComplete: "tel" }),
  text("city", "City", { max: 80, autoComplete: "address-level2" }),
  radio(
    "projectType",
    "Project type",
    // Commercial first, and said before sending, not only after: the company takes commercial projects only.
    [
      { value: "commercial", label: "Commercial" },
      {
        value: "residential",
        label: "Residential",
        note: "Please note: we currently take commercial projects only. You can still send the form; we keep your details on file and will reach out if that changes.",
      },
    ],
    "Choose residential or commercial",
  ),
  text("formOfContact", "Preferred form of contact", {
    max: 60,
    autoComplete: "off",
    placeholder: "Text, phone call or email",
  }),
  text("bestTime", "Best time to reach you", {
    max: 60,
    autoComplete: "off",
    placeholder: "Morning, afternoon or evening",
  }),
  optional(textarea("comments", "Comments", { max: 2000, rows: 4, wide: true })),
);

export type EstimateRequest = z.infer<typeof estimateSchema>;
