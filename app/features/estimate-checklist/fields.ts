import type { FieldDefinition } from "~/forms/definition";

/** The sections of the checklist, in order: who filled it in, then the nine of spec §2. */
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

const S = CHECKLIST_SECTIONS;
const notes = { kind: "textarea", optional: true, rows: 3, wide: true } as const;
const line = { kind: "text", optional: true } as const;

/** The checklist's questions in the order of spec §3, each in its section: the one source of their labels. */
export const checklistFields = [
  { name: "fillerName", label: "Your Name", kind: "text", section: S.completedBy, autoComplete: "name" },
  { name: "fillerEmail", label: "Your Email", kind: "email", section: S.completedBy, autoComplete: "email" },
  { name: "projectName", label: "Project Name", ...line, section: S.general },
  { name: "projectAddress", label: "Project Address", ...line, section: S.general, wide: true },
  { name: "city", label: "City", ...line, section: S.general },
  { name: "state", label: "State", ...line, section: S.general },
  { name: "zip", label: "ZIP Code", ...line, section: S.general },
  { name: "ownerName", label: "Owner/GC Name", ...line, section: S.general },
  { name: "ownerEmail", label: "Owner/GC Email", kind: "email", optional: true, section: S.general },
  { name: "ownerPhone", label: "Owner/GC Phone", kind: "tel", optional: true, section: S.general },
  { name: "projectScope", label: "Project Scope", ...notes, section: S.general },
  { name: "projectTimeline", label: "Project Timeline", ...notes, section: S.general },
  { name: "permittingRequirements", label: "Permitting Requirements", ...notes, section: S.siteAccess },
  { name: "workingHours", label: "Working Hours and Restrictions", ...notes, section: S.siteAccess },
  { name: "securityRequirements", label: "Security Requirements", ...notes, section: S.siteAccess },
  { name: "parkingStaging", label: "Parking and Staging Areas", ...notes, section: S.siteAccess },
  { name: "existingServiceLocation", label: "Existing Service Location and Size", ...notes, section: S.existing },
  { name: "panelCondition", label: "Panel Condition", ...notes, section: S.existing },
  { name: "existingLighting", label: "Existing Lighting", ...notes, section: S.existing },
  { name: "existingGrounding", label: "Existing Grounding and Bonding", ...notes, section: S.existing },
  { name: "codeViolations", label: "Visible Code Violations", ...notes, section: S.existing },
  { name: "projectDetails", label: "Project Details", ...notes, rows: 5, section: S.scope },
  { name: "plansDrawings", label: "Plans and Drawings Available", ...notes, section: S.plans },
  { name: "measurements", label: "Measurements Taken", ...notes, section: S.plans },
  { name: "missingDetails", label: "Missing Details", ...notes, section: S.plans },
  { name: "conduitWire", label: "Conduit and Wire", ...notes, section: S.materials },
  { name: "fixtureTypes", label: "Fixture Types", ...notes, section: S.materials },
  { name: "panelboards", label: "Panelboards", ...notes, section: S.materials },
  { name: "laborAccess", label: "Labor and Access", ...notes, section: S.materials },
  { name: "tradeCoordination", label: "Coordination with Other Trades", ...notes, section: S.materials },
  { name: "panelLocations", label: "Panel Locations", ...notes, section: S.photos },
  { name: "conduitPaths", label: "Conduit Paths", ...notes, section: S.photos },
  { name: "tightAreas", label: "Tight Areas", ...notes, section: S.photos },
  { name: "damages", label: "Existing Damage", ...notes, section: S.photos },
  {
    name: PHOTOS_FIELD,
    label: "Site Photos",
    kind: "file",
    optional: true,
    section: S.photos,
    hint: "JPEG, PNG, WebP or HEIC, up to 30 photos of 25 MB each.",
  },
  { name: "decisionMakers", label: "Decision Makers", ...notes, section: S.questions },
  { name: "budgetConstraints", label: "Budget Constraints", ...notes, section: S.questions },
  { name: "preferredBrands", label: "Preferred Brands", ...notes, section: S.questions },
  { name: "timelineExpectations", label: "Timeline Expectations", ...notes, section: S.questions },
  { name: "permitResponsibility", label: "Permit Responsibility", ...notes, section: S.followUp },
  { name: "rfisNeeded", label: "RFIs Needed", ...notes, section: S.followUp },
] as const satisfies readonly FieldDefinition[];

export type ChecklistFieldName = (typeof checklistFields)[number]["name"];

/** The checklist's answers (every field but the photos), by name, in the order of spec §3. */
export const CHECKLIST_ANSWER_NAMES = checklistFields
  .map((field) => field.name)
  .filter((name): name is Exclude<ChecklistFieldName, typeof PHOTOS_FIELD> => name !== PHOTOS_FIELD);
