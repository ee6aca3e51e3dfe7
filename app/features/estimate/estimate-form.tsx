import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { FieldError, inputClass } from "~/features/forms/field-error";
import { parseForm } from "~/forms/parse-form";
import { SubmissionGuardFields, useSubmissionGuards } from "~/forms/submission-guard-fields";
import { REQUIRED_MESSAGE } from "~/forms/text-field";
import { type EstimateActionResult, estimateForm } from "./definition";
import { EstimateSuccessDialog } from "./estimate-success-dialog";
import { estimateSchema } from "./schema";

const ESTIMATE_FIELD_LABELS = Object.fromEntries(estimateForm.fields.map((field) => [field.name, field.label]));

/** The free-estimate request form. It works as a plain HTML form; JavaScript adds instant checks and the modal. */
export function EstimateForm() {
  const actionData = useActionData<EstimateActionResult>();
  const busy = useNavigation().state === "submitting";
  const { guards, renew, onFormTouched } = useSubmissionGuards();
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
  const alert = anyEmpty
    ? estimateForm.messages.missing
    : actionData?.status === "error"
      ? actionData.message
      : undefined;
  const success = actionData?.status === "success" ? actionData : undefined;

  const text = (name: "firstName" | "lastName" | "email" | "phone" | "city" | "formOfContact" | "bestTime") => {
    const field = fields[name];
    const type = name === "email" ? "email" : name === "phone" ? "tel" : "text";
    return (
      <div>
        <label htmlFor={field.id} className="block font-medium text-slate-900">
          {ESTIMATE_FIELD_LABELS[name]}
        </label>
        <input
          {...getInputProps(field, { type })}
          key={field.key}
          className={inputClass}
          autoComplete={AUTOCOMPLETE[name]}
          placeholder={PLACEHOLDERS[name]}
        />
        <FieldError id={field.errorId} errors={field.errors} />
      </div>
    );
  };

  return (
    <>
      <Form
        method="post"
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
        <div aria-live="assertive" className="sm:col-span-2">
          {alert && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 font-medium text-red-900">
              {alert}
            </p>
          )}
        </div>
        {text("firstName")}
        {text("lastName")}
        {text("email")}
        {text("phone")}
        {text("city")}
        <fieldset
          aria-invalid={fields.projectType.errors ? true : undefined}
          aria-describedby={fields.projectType.errors ? fields.projectType.errorId : undefined}
        >
          <legend className="font-medium text-slate-900">{ESTIMATE_FIELD_LABELS.projectType}</legend>
          <div className="mt-2 flex gap-6">
            {(["commercial", "residential"] as const).map((value) => (
              <label key={value} className="inline-flex items-center gap-2 capitalize">
                <input
                  type="radio"
                  name={fields.projectType.name}
                  value={value}
                  defaultChecked={fields.projectType.initialValue === value}
                  className="h-5 w-5 accent-brand-700"
                />
                {value}
              </label>
            ))}
          </div>
          <FieldError id={fields.projectType.errorId} errors={fields.projectType.errors} />
        </fieldset>
        {text("formOfContact")}
        {text("bestTime")}
        <div className="sm:col-span-2">
          <label htmlFor={fields.comments.id} className="block font-medium text-slate-900">
            {ESTIMATE_FIELD_LABELS.comments} <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <textarea {...getTextareaProps(fields.comments)} key={fields.comments.key} rows={4} className={inputClass} />
          <FieldError id={fields.comments.errorId} errors={fields.comments.errors} />
        </div>
        <SubmissionGuardFields idPrefix="estimate" guards={guards} />
        <div className="sm:col-span-2">
          <button
            ref={submitRef}
            type="submit"
            disabled={busy}
            className="button-primary disabled:cursor-wait disabled:opacity-70"
          >
            {busy ? "Sending..." : "Request a free estimate"}
          </button>
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
