import { getFormProps, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Form, useActionData } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { ChoiceField } from "~/components/forms/choice-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { parseForm } from "~/features/forms/parse-form";
import { SubmissionGuardFields, useSubmissionGuards } from "~/features/forms/submission-guard-fields";
import { REQUIRED_MESSAGE } from "~/features/forms/text-field";
import { EstimateSuccessDialog } from "./estimate-success-dialog";
import { ESTIMATE_FIELD_LABELS } from "./fields";
import { EMPTY_FIELDS_MESSAGE, type EstimateActionResult, estimateSchema } from "./schema";

/** The free-estimate request form. It works as a plain HTML form; JavaScript adds instant checks and the modal. */
export function EstimateForm() {
  const actionData = useActionData<EstimateActionResult>();
  const busy = usePending();
  const { guards, renew } = useSubmissionGuards();
  const [keyUsed, setKeyUsed] = useState(false);
  const [answerCount, setAnswerCount] = useState(0);
  const submitRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setKeyUsed(actionData?.status === "success");
    setAnswerCount((count) => count + 1);
  }, [actionData]);

  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, estimateSchema),
  });
  const anyEmpty = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const alert = anyEmpty ? EMPTY_FIELDS_MESSAGE : actionData?.status === "error" ? actionData.message : undefined;
  const success = actionData?.status === "success" ? actionData : undefined;

  const text = (name: "firstName" | "lastName" | "email" | "phone" | "city" | "formOfContact" | "bestTime") => (
    <TextField
      field={fields[name]}
      label={ESTIMATE_FIELD_LABELS[name]}
      kind={name === "email" ? "email" : name === "phone" ? "tel" : "text"}
      autoComplete={AUTOCOMPLETE[name]}
      placeholder={PLACEHOLDERS[name]}
    />
  );

  return (
    <>
      <Form
        method="post"
        preventScrollReset
        {...getFormProps(form)}
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
        {text("firstName")}
        {text("lastName")}
        {text("email")}
        {text("phone")}
        {text("city")}
        <ChoiceField
          field={fields.projectType}
          label={ESTIMATE_FIELD_LABELS.projectType}
          options={[
            { value: "commercial", label: "Commercial" },
            { value: "residential", label: "Residential" },
          ]}
        />
        {text("formOfContact")}
        {text("bestTime")}
        <TextAreaField field={fields.comments} label={ESTIMATE_FIELD_LABELS.comments} optional rows={4} wide />
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

const AUTOCOMPLETE = {
  firstName: "given-name",
  lastName: "family-name",
  email: "email",
  phone: "tel",
  city: "address-level2",
  formOfContact: "off",
  bestTime: "off",
} as const;

const PLACEHOLDERS: Partial<Record<keyof typeof AUTOCOMPLETE, string>> = {
  formOfContact: "Text, phone call or email",
  bestTime: "Morning, afternoon or evening",
};
