import type { FieldDefinition } from "~/forms/definition";
import { PROJECT_TYPES } from "./schema";

const PROJECT_TYPE_LABELS = { commercial: "Commercial", residential: "Residential" } as const;

/** Said before sending, not only after: the company takes commercial projects only. */
const PROJECT_TYPE_NOTES: Partial<Record<(typeof PROJECT_TYPES)[number], string>> = {
  residential:
    "Please note: we currently take commercial projects only. You can still send the form; we keep your details on file and will reach out if that changes.",
};

/** The estimate form's questions, in its order: the one source of their labels. */
export const estimateFields = [
  { name: "firstName", label: "First name", kind: "text", autoComplete: "given-name" },
  { name: "lastName", label: "Last name", kind: "text", autoComplete: "family-name" },
  { name: "email", label: "Email", kind: "email", autoComplete: "email" },
  { name: "phone", label: "Phone", kind: "tel", autoComplete: "tel" },
  { name: "city", label: "City", kind: "text", autoComplete: "address-level2" },
  {
    name: "projectType",
    label: "Project type",
    kind: "radio",
    // Commercial first: the company takes commercial projects only.
    options: [...PROJECT_TYPES]
      .reverse()
      .map((value) => ({ value, label: PROJECT_TYPE_LABELS[value], note: PROJECT_TYPE_NOTES[value] })),
  },
  {
    name: "formOfContact",
    label: "Preferred form of contact",
    kind: "text",
    autoComplete: "off",
    placeholder: "Text, phone call or email",
  },
  {
    name: "bestTime",
    label: "Best time to reach you",
    kind: "text",
    autoComplete: "off",
    placeholder: "Morning, afternoon or evening",
  },
  { name: "comments", label: "Comments", kind: "textarea", optional: true, rows: 4, wide: true },
] as const satisfies readonly FieldDefinition[];
