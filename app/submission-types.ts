import { assessmentForm } from "~/features/assessment/definition";
import { applicationForm } from "~/features/careers/definition";
import { estimateForm } from "~/features/estimate/definition";
import { teamMessageForm } from "~/features/team-communication/definition";
import type { AnyFormDefinition } from "~/forms/definition";

/**
 * Every form whose submissions the staff tools show, as its definition. Like the route table, this is where
 * the features meet: a new form joins the inbox, its filters, its export and its alerts by one line here.
 */
export const submissionTypes: readonly AnyFormDefinition[] = [
  estimateForm,
  applicationForm,
  assessmentForm,
  teamMessageForm,
];

/** What the inbox needs of a type. */
export type SubmissionTypeView = Pick<AnyFormDefinition, "type" | "label" | "statuses" | "fields" | "contact">;

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
