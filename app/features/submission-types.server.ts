import { type AnyFormDefinition, mayRead } from "~/forms/definition";
import type { WebhookSetting } from "~/services/config.server";
import type { StaffRole } from "~/services/db/schema.server";
import { featureManifests } from "./feature-index.generated.server";

/**
 * Every form whose submissions the staff tools show, from the features' manifests: what the public sends
 * first (leads come before internal paperwork in the inbox's counts and lists), then by name.
 */
export const submissionTypes: readonly AnyFormDefinition[] = featureManifests
  .flatMap((feature) => feature.forms ?? [])
  .sort(
    (one, other) =>
      Number(one.audience !== "public") - Number(other.audience !== "public") || one.label.localeCompare(other.label),
  );

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
  return mayRead(describeSubmissionType(type), role);
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

/** What the inbox's browser code may know of a type: its name and workflow, never its schema or deliveries. */
export type SubmissionTypeChoice = { type: string; label: string; statuses: readonly string[] };

/** The types a staff user of `role` may read, as the inbox's filters and list show them. */
export function typeChoicesFor(role: StaffRole): SubmissionTypeChoice[] {
  return submissionTypes
    .filter((definition) => mayReadSubmissionsOf(definition.type, role))
    .map(({ type, label, statuses }) => ({ type, label, statuses }));
}

/** Every webhook target the forms declare: the setting that names it and what it receives. */
export const webhookTargets: ReadonlyArray<{ setting: WebhookSetting; receives: string }> = submissionTypes.flatMap(
  (definition) =>
    definition.deliveries.flatMap((delivery) =>
      delivery.channel === "webhook" ? [{ setting: delivery.target, receives: delivery.receives }] : [],
    ),
);
