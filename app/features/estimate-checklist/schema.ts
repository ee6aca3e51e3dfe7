import type * as z from "zod/mini";
import { emailText, formFields, optional, type Presentation, photo, tel, text, textarea } from "~/forms/field-builders";
import { textAnswers } from "~/forms/text-answers";
import { CHECKLIST_THUMBNAIL_PIXELS } from "./pdf-thumbnail";

const SHORT_ANSWER_MAX = 200;

/** The sections of the checklist, in order: who filled it in, then the nine of docs/spec.md §2. */
export const CHECKLIST_SECTIONS = {
  completedBy: "Form Completed By",
  general: "1. General Project Information",
  siteAccess: "2. Site Access and Conditions",
  existing: "3. Existing Electrical Infrastructure",
  scope: "4. Scope of Work",
  plans: "5. Plans and Drawings",
  materials: "6. Material and Labor Considerations",
  photos: "7. Photographic Documentation",
  questions: "8. Questions for Client/GC",
  followUp: "9. Follow-Up",
} as const;

/** The file field the site photos are posted and stored under. */
export const PHOTOS_FIELD = "photos";

export const PHOTO_MAX_BYTES = 25 * 1024 * 1024;
export const MAX_PHOTOS = 30;
/** Beside the photos, in the browser and from the server; "Error" first, so the banner shows them as errors. */
export const PHOTO_MESSAGES = {
  tooLarge: "Error: a photo is larger than 25 MB. Please remove it and submit again.",
  tooMany: "Error: more than 30 photos were added. Please remove some and submit again.",
  wrongType: "Error: a file is not a photo we can read (JPEG, PNG, WebP or HEIC). Please remove it and submit again.",
};

const S = CHECKLIST_SECTIONS;

const line = <const Name extends string>(name: Name, label: string, section: string, presentation?: Presentation) =>
  optional(text(name, label, { max: SHORT_ANSWER_MAX, section, ...presentation }));

const notes = <const Name extends string>(name: Name, label: string, section: string, rows = 3) =>
  optional(textarea(name, label, { max: 5000, section, rows, wide: true }));

/**
 * The estimate checklist's questions in the order of docs/spec.md §3, each in its section: one schema for the browser
 * and the server, and its labels. Your Name and Your Email are required after trimming (docs/spec.md §5), every other
 * answer is optional; the email this person sent last fills their next checklist. The photos' rule (count, size; their content on the server) is the photo field's.
 */
export const { schema: checklistSchema, fields: checklistFields } = formFields(
  text("fillerName", "Your Name", { max: SHORT_ANSWER_MAX, section: S.completedBy, autoComplete: "name" }),
  emailText("fillerEmail", "Your Email", {
    max: SHORT_ANSWER_MAX,
    section: S.completedBy,
    autoComplete: "email",
    keptForNext: true,
  }),
  line("projectName", "Project Name", S.general),
  line("projectAddress", "Project Address", S.general, { wide: true }),
  line("city", "City", S.general),
  line("state", "State", S.general),
  line("zip", "ZIP Code", S.general, { inputMode: "numeric" }),
  line("ownerName", "Owner/GC Name", S.general),
  optional(emailText("ownerEmail", "Owner/GC Email", { max: SHORT_ANSWER_MAX, section: S.general })),
  optional(tel("ownerPhone", "Owner/GC Phone", { max: SHORT_ANSWER_MAX, section: S.general })),
  notes("projectScope", "Project Scope", S.general),
  notes("projectTimeline", "Project Timeline", S.general),
  notes("permittingRequirements", "Permitting Requirements", S.siteAccess),
  notes("workingHours", "Working Hours and Restrictions", S.siteAccess),
  notes("securityRequirements", "Security Requirements", S.siteAccess),
  notes("parkingStaging", "Parking and Staging Areas", S.siteAccess),
  notes("existingServiceLocation", "Existing Service Location and Size", S.existing),
  notes("panelCondition", "Panel Condition", S.existing),
  notes("existingLighting", "Existing Lighting", S.existing),
  notes("existingGrounding", "Existing Grounding and Bonding", S.existing),
  notes("codeViolations", "Visible Code Violations", S.existing),
  notes("projectDetails", "Project Details", S.scope, 5),
  notes("plansDrawings", "Plans and Drawings Available", S.plans),
  notes("measurements", "Measurements Taken", S.plans),
  notes("missingDetails", "Missing Details", S.plans),
  notes("conduitWire", "Conduit and Wire", S.materials),
  notes("fixtureTypes", "Fixture Types", S.materials),
  notes("panelboards", "Panelboards", S.materials),
  notes("laborAccess", "Labor and Access", S.materials),
  notes("tradeCoordination", "Coordination with Other Trades", S.materials),
  notes("panelLocations", "Panel Locations", S.photos),
  notes("conduitPaths", "Conduit Paths", S.photos),
  notes("tightAreas", "Tight Areas", S.photos),
  notes("damages", "Existing Damage", S.photos),
  optional(
    photo(PHOTOS_FIELD, "Site Photos", {
      maxBytes: PHOTO_MAX_BYTES,
      maxCount: MAX_PHOTOS,
      thumbnail: CHECKLIST_THUMBNAIL_PIXELS,
      messages: PHOTO_MESSAGES,
      section: S.photos,
      hint: "JPEG, PNG, WebP or HEIC, up to 30 photos of 25 MB each.",
    }),
  ),
  notes("decisionMakers", "Decision Makers", S.questions),
  notes("budgetConstraints", "Budget Constraints", S.questions),
  notes("preferredBrands", "Preferred Brands", S.questions),
  notes("timelineExpectations", "Timeline Expectations", S.questions),
  notes("permitResponsibility", "Permit Responsibility", S.followUp),
  notes("rfisNeeded", "RFIs Needed", S.followUp),
);

/** The checklist's answers (every field but the photos), in the order of docs/spec.md §3. */
const answerFields = checklistFields.filter(
  (field): field is Exclude<(typeof checklistFields)[number], { name: typeof PHOTOS_FIELD }> =>
    field.name !== PHOTOS_FIELD,
);
export const CHECKLIST_ANSWER_NAMES = answerFields.map((field) => field.name);

export type ChecklistValue = z.infer<typeof checklistSchema>;

export type ChecklistAnswerName = (typeof CHECKLIST_ANSWER_NAMES)[number];

/** What is stored and delivered of a checklist: every answer in the order of docs/spec.md §3, "" where none was given. */
export type ChecklistAnswers = Record<ChecklistAnswerName, string>;

export function checklistAnswers(value: ChecklistValue): ChecklistAnswers {
  return textAnswers(answerFields, value);
}
