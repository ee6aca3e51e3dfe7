import { applicationForm } from "~/features/careers/definition";
import { estimateForm } from "~/features/estimate/definition";
import { checklistForm } from "~/features/estimate-checklist/definition";
import { peerReviewForm } from "~/features/peer-review/definition";
import { estimateRequestForm } from "~/features/scheduling/estimate-request/definition";
import { jobRequestForm } from "~/features/scheduling/job-request/definition";
import { assessmentForm } from "~/features/skills/assessment/definition";
import { teamMessageForm } from "~/features/team-communication/definition";
import type { AnyFormDefinition } from "~/forms/definition";
import type { StaffRole } from "~/server/db/schema.server";

/**
 * Every form whose submissions the staff tools show, as its definition. Like the route table, this is where
 * the features meet: a new form joins the inbox, its filters, its export and its alerts by one line here.
 */
export const submissionTypes: readonly AnyFormDefinition[] = [
  estimateForm,
  applicationForm,
  assessmentForm,
  teamMessageForm,
  peerReviewForm,
  checklistForm,
  estimateRequestForm,
  jobRequestForm,
];

/** What the inbox needs of a type. */
export type SubmissionTypeView = Pick<
  AnyFormDefinition,
  "type" | "label" | "statuses" | "fields" | "contact" | "readableBy" | "exportableBy"
>;

/** The definition of a type; an unknown type (a form removed since) still shows its raw fields. */
export function describeSubmissionType(type: string): SubmissionTypeView {
  return (
    submissionTypes.find((definition) => definition.type === type) ?? {
      type,
      label: type,
      statuses: ["New", "Archived"],
      fields: [],
      contact: () => ({ name: "", email: "", phone: "" }),
    }
  );
}

/** Whether a staff user of `role` may read the stored submissions of `type`: admins read every type. */
export function mayReadSubmissionsOf(type: string, role: StaffRole): boolean {
  return role === "admin" || (describeSubmissionType(type).readableBy ?? "staff") === "staff";
}

/** The types whose submissions a staff user of `role` may not read, to leave out of lists and exports. */
export function typesHiddenFrom(role: StaffRole): string[] {
  return submissionTypes.filter((definition) => !mayReadSubmissionsOf(definition.type, role)).map(({ type }) => type);
}

/** The types a staff user of `role` may read but not export, which the CSV leaves out. */
export function typesNotExportableBy(role: StaffRole): SubmissionTypeView[] {
  return submissionTypes.filter(
    (definition) =>
      role !== "admin" && definition.exportableBy === "admin" && mayReadSubmissionsOf(definition.type, role),
  );
}
