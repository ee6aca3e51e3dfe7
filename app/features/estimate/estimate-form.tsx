import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useFormAction } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { DefinedFields } from "~/components/forms/defined-field";
import { PublicFormEnd } from "~/components/forms/public-form";
import type { SiteContent } from "~/content/site-content";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { type EstimateActionResult, estimateForm } from "./definition";
import { EstimateSuccessDialog } from "./estimate-success-dialog";
import { ESTIMATE_FORM_ID } from "./page-contract";
import { estimateSchema } from "./schema";

/** The questions, the residential choice's note (the commercial-only claim) as the site's content says it. */
function withResidentialNote(note: string): readonly FieldDefinition[] {
  return estimateForm.fields.map((field) =>
    field.options
      ? {
          ...field,
          options: field.options.map((option) => (option.value === "residential" ? { ...option, note } : option)),
        }
      : field,
  );
}

/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(estimateSchema);

/**
 * The free-estimate request form, rendered on the server: a plain HTML form that posts to its page and comes
 * back at `#form` with the answer. The pages that carry it run without React in the browser; their script
 * (estimate-form-script.ts) adds instant checks, sending in place, and the modal confirmation.
 */
export function EstimateForm({ texts }: { texts: SiteContent["estimate"] }) {
  const actionData = useActionData<EstimateActionResult>();
  // The answer opens at the form, where its message is, not at the top of the page.
  const actionAtForm = `${useFormAction()}#form`;
  const [form, fields] = useForm({
    id: ESTIMATE_FORM_ID,
    lastResult: actionData?.result,
    constraint: LENGTH_LIMITS,
  });
  const alert = actionData && actionData.status !== "success" ? actionData.message : undefined;
  const success = actionData?.status === "success" ? actionData : undefined;

  // The confirmation comes first: a page without JavaScript comes back at #form with it in view. With
  // JavaScript it is a modal dialog, wherever it sits in the page.
  return (
    <>
      <EstimateSuccessDialog answer={success} texts={texts} />
      <Form
        method="post"
        action={actionAtForm}
        {...getFormProps(form)}
        className="mt-8 grid gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2"
      >
        <AlertRegion className="sm:col-span-2">{alert && <Alert tone="error">{alert}</Alert>}</AlertRegion>
        <DefinedFields definitions={withResidentialNote(texts.residentialNote)} fields={fields} />
        <PublicFormEnd idPrefix="estimate" guards={{}} busy={false} busyLabel="Sending..." className="sm:col-span-2">
          Request a free estimate
        </PublicFormEnd>
      </Form>
    </>
  );
}
