import { getFormProps, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useFormAction } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { DefinedFields } from "~/components/forms/defined-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { usePending } from "~/components/forms/use-pending";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { parseForm } from "~/forms/parse-form";
import { SubmissionGuardFields, useSubmissionGuards } from "~/forms/submission-guard-fields";
import { REQUIRED_MESSAGE } from "~/forms/text-field";
import { type EstimateActionResult, estimateForm } from "./definition";
import { EstimateSuccessDialog } from "./estimate-success-dialog";
import { estimateSchema } from "./schema";

/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(estimateSchema);

/** The free-estimate request form. It works as a plain HTML form; JavaScript adds instant checks and the modal. */
export function EstimateForm() {
  const actionData = useActionData<EstimateActionResult>();
  const busy = usePending();
  const { guards, renew, onFormTouched } = useSubmissionGuards();
  const [keyUsed, setKeyUsed] = useState(false);
  const [answerCount, setAnswerCount] = useState(0);
  const submitRef = useRef<HTMLButtonElement>(null);
  // The answer opens at the form, where its message is, not at the top of the page.
  const actionAtForm = `${useFormAction()}#form`;
  useEffect(() => {
    setKeyUsed(actionData?.status === "success");
    setAnswerCount((count) => count + 1);
  }, [actionData]);

  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    constraint: LENGTH_LIMITS,
    onValidate: ({ formData }) => parseForm(formData, estimateSchema),
  });
  const anyEmpty = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const alert = anyEmpty
    ? estimateForm.messages.missing
    : actionData?.status === "error"
      ? actionData.message
      : undefined;
  const success = actionData?.status === "success" ? actionData : undefined;

  return (
    <>
      <Form
        method="post"
        action={actionAtForm}
        preventScrollReset
        {...getFormProps(form)}
        onFocus={onFormTouched}
        // After a success, editing the form makes the next send a new request, with a new key.
        onInput={() => {
          if (keyUsed) {
            renew();
            setKeyUsed(false);
          }
        }}
        className="mt-8 grid gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2"
      >
        <AlertRegion className="sm:col-span-2">{alert && <Alert tone="error">{alert}</Alert>}</AlertRegion>
        <DefinedFields definitions={estimateForm.fields} fields={fields} />
        <SubmissionGuardFields idPrefix="estimate" guards={guards} />
        <div className="sm:col-span-2">
          <SubmitButton ref={submitRef} busy={busy} busyLabel="Sending...">
            Request a free estimate
          </SubmitButton>
        </div>
      </Form>
      {success && (
        <EstimateSuccessDialog
          key={answerCount}
          reference={success.reference}
          projectType={success.projectType}
          onClose={() => submitRef.current?.focus()}
        />
      )}
    </>
  );
}
