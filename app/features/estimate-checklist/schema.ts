import * as z from "zod/mini";
import { optionalTextField, singleLineEmail, textField } from "~/forms/text-field";
import { CHECKLIST_ANSWER_NAMES, type ChecklistFieldName, checklistFields } from "./fields";

const SHORT_ANSWER_MAX = 200;
const NOTES_MAX = 5000;

const LABELS = Object.fromEntries(checklistFields.map((field) => [field.name, field.label])) as Record<
  ChecklistFieldName,
  string
>;
const short = (name: ChecklistFieldName) => optionalTextField(LABELS[name], SHORT_ANSWER_MAX);
const notes = (name: ChecklistFieldName) => optionalTextField(LABELS[name], NOTES_MAX);

/**
 * The estimate checklist: one schema for the browser and the server. Your Name and Your Email are required
 * after trimming (spec §5), every other answer is optional. The photos are checked by the body reader (count,
 * size, content) and prepared on the server; here they are only let through.
 */
export const checklistSchema = z.object({
  fillerName: textField(LABELS.fillerName, SHORT_ANSWER_MAX),
  fillerEmail: singleLineEmail(textField(LABELS.fillerEmail, SHORT_ANSWER_MAX)),
  projectName: short("projectName"),
  projectAddress: short("projectAddress"),
  city: short("city"),
  state: short("state"),
  zip: short("zip"),
  ownerName: short("ownerName"),
  ownerEmail: singleLineEmail(short("ownerEmail")),
  ownerPhone: short("ownerPhone"),
  projectScope: notes("projectScope"),
  projectTimeline: notes("projectTimeline"),
  permittingRequirements: notes("permittingRequirements"),
  workingHours: notes("workingHours"),
  securityRequirements: notes("securityRequirements"),
  parkingStaging: notes("parkingStaging"),
  existingServiceLocation: notes("existingServiceLocation"),
  panelCondition: notes("panelCondition"),
  existingLighting: notes("existingLighting"),
  existingGrounding: notes("existingGrounding"),
  codeViolations: notes("codeViolations"),
  projectDetails: notes("projectDetails"),
  plansDrawings: notes("plansDrawings"),
  measurements: notes("measurements"),
  missingDetails: notes("missingDetails"),
  conduitWire: notes("conduitWire"),
  fixtureTypes: notes("fixtureTypes"),
  panelboards: notes("panelboards"),
  laborAccess: notes("laborAccess"),
  tradeCoordination: notes("tradeCoordination"),
  panelLocations: notes("panelLocations"),
  conduitPaths: notes("conduitPaths"),
  tightAreas: notes("tightAreas"),
  damages: notes("damages"),
  photos: z.optional(z.union([z.file(), z.array(z.file())])),
  decisionMakers: notes("decisionMakers"),
  budgetConstraints: notes("budgetConstraints"),
  preferredBrands: notes("preferredBrands"),
  timelineExpectations: notes("timelineExpectations"),
  permitResponsibility: notes("permitResponsibility"),
  rfisNeeded: notes("rfisNeeded"),
});

export type ChecklistValue = z.infer<typeof checklistSchema>;

export type ChecklistAnswerName = (typeof CHECKLIST_ANSWER_NAMES)[number];

/** What is stored and delivered of a checklist: every answer in the order of spec §3, "" where none was given. */
export type ChecklistAnswers = Record<ChecklistAnswerName, string>;

export function checklistAnswers(value: ChecklistValue): ChecklistAnswers {
  return Object.fromEntries(CHECKLIST_ANSWER_NAMES.map((name) => [name, value[name] ?? ""])) as ChecklistAnswers;
}
