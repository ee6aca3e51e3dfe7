import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { type ReactNode, useEffect, useState } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { FieldError, inputClass } from "~/features/forms/field-error";
import { parseForm } from "~/forms/parse-form";
import { SubmissionGuardFields, useSubmissionGuards } from "~/forms/submission-guard-fields";
import { REQUIRED_MESSAGE } from "~/forms/text-field";
import { type ApplicationActionResult, applicationForm } from "./definition";

const LABELS = Object.fromEntries(applicationForm.fields.map((field) => [field.name, field.label]));

import {
  applicationSchema,
  DESIRED_ROLES,
  EDUCATION_LEVELS,
  RESUME_MAX_BYTES,
  RESUME_TOO_LARGE_MESSAGE,
} from "./schema";

const REQUIRED_TEXT = "This field is required.";
const CHOOSE_TEXT = "Please choose yes or no.";

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={id} className="text-xl font-bold text-brand-800">
        {title}
      </h2>
      <div className="mt-4 grid gap-5 sm:grid-cols-2">{children}</div>
    </section>
  );
}

function Label({ field, optional, hint }: { field: FieldMetadata<unknown>; optional?: boolean; hint?: string }) {
  return (
    <label htmlFor={field.id} className="block font-medium text-slate-900">
      {LABELS[field.name as keyof typeof LABELS]}
      {optional && <span className="font-normal text-slate-600"> (optional)</span>}
      {hint && <span className="block text-sm font-normal text-slate-600">{hint}</span>}
    </label>
  );
}

function YesNo({ field }: { field: FieldMetadata<"yes" | "no" | undefined> }) {
  const invalid = Boolean(field.errors);
  return (
    <fieldset
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? field.errorId : undefined}
      className="rounded-lg border border-transparent p-3 -m-3 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50"
    >
      <legend className="font-medium text-slate-900">{LABELS[field.name as keyof typeof LABELS]}</legend>
      <div className="mt-2 flex gap-6">
        {(["yes", "no"] as const).map((value) => (
          <label key={value} className="inline-flex items-center gap-2 capitalize">
            <input
              type="radio"
              name={field.name}
              value={value}
              defaultChecked={field.initialValue === value}
              key={`${field.key}-${value}`}
              className="h-5 w-5 accent-brand-700"
            />
            {value}
          </label>
        ))}
      </div>
      <FieldError id={field.errorId} errors={field.errors} requiredText={CHOOSE_TEXT} />
    </fieldset>
  );
}

/**
 * The job application. A plain multipart HTML form that works without JavaScript; with it, missing answers
 * are marked before anything is sent, an oversized resume is refused at once, and the answer comes in place.
 */
export function ApplicationForm() {
  const actionData = useActionData<ApplicationActionResult>();
  const busy = useNavigation().state === "submitting";
  const { guards, renew, onFormTouched } = useSubmissionGuards();
  const [answerShown, setAnswerShown] = useState(true);
  const [resumeMessage, setResumeMessage] = useState<string>();

  useEffect(() => {
    setAnswerShown(true);
    if (actionData?.status === "success") renew();
  }, [actionData, renew]);

  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { hasDriversLicense: "no" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, applicationSchema),
  });
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const answer = answerShown ? actionData : undefined;
  const alert = anyMissing ? applicationForm.messages.missing : answer?.status === "error" ? answer.message : undefined;
  const success = answer?.status === "success" ? answer : undefined;

  const text = (
    name: "firstName" | "lastName" | "email" | "phone" | "address" | "desiredSalary" | "licenseNumber",
    options: { type?: "text" | "email" | "tel"; autoComplete?: string; hint?: string; wide?: boolean } = {},
  ) => {
    const field = fields[name];
    return (
      <div className={options.wide ? "sm:col-span-2" : undefined}>
        <Label field={field} hint={options.hint} />
        <input
          {...getInputProps(field, { type: options.type ?? "text" })}
          key={field.key}
          autoComplete={options.autoComplete}
          className={inputClass}
        />
        <FieldError id={field.errorId} errors={field.errors} requiredText={REQUIRED_TEXT} />
      </div>
    );
  };

  const longText = (name: "certifications" | "vocationalTraining" | "criminalBackgroundExplanation", hint?: string) => {
    const field = fields[name];
    return (
      <div className="sm:col-span-2">
        <Label field={field} hint={hint} />
        <textarea {...getTextareaProps(field)} key={field.key} rows={3} className={inputClass} />
        <FieldError id={field.errorId} errors={field.errors} requiredText={REQUIRED_TEXT} />
      </div>
    );
  };

  const select = (name: "desiredRole" | "educationLevel", options: readonly string[]) => {
    const field = fields[name];
    return (
      <div>
        <Label field={field} />
        <select {...getSelectProps(field)} key={field.key} className={inputClass}>
          <option value="">Choose one</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <FieldError id={field.errorId} errors={field.errors} requiredText={REQUIRED_TEXT} />
      </div>
    );
  };

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      preventScrollReset
      {...getFormProps(form)}
      onFocus={onFormTouched}
      onSubmit={(event) => {
        // Spec: each attempt starts at the top with earlier messages and highlights cleared.
        window.scrollTo({ top: 0 });
        setAnswerShown(false);
        setResumeMessage(undefined);
        form.onSubmit(event);
      }}
      className="mt-8 grid gap-6"
    >
      <div aria-live="assertive" className="empty:hidden">
        {alert && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 font-medium text-red-900">
            {alert}
          </p>
        )}
        {success && (
          <p role="status" className="rounded-lg border border-brand-600 bg-brand-50 px-4 py-3 text-brand-900">
            <strong className="font-semibold">{applicationForm.messages.success}</strong> Your reference number is{" "}
            <strong className="font-mono">{success.reference}</strong>.
          </p>
        )}
      </div>

      <Section id="personal-heading" title="Personal Information">
        {text("firstName", { autoComplete: "given-name" })}
        {text("lastName", { autoComplete: "family-name" })}
        {text("email", { type: "email", autoComplete: "email" })}
        {text("phone", { type: "tel", autoComplete: "tel" })}
        {text("address", { autoComplete: "street-address", wide: true })}
      </Section>

      <Section id="transportation-heading" title="Transportation">
        <div className="follow-up grid gap-5">
          <div className="follow-up-question">
            <YesNo field={fields.hasDriversLicense} />
          </div>
          <div className="follow-up-answer">
            {text("licenseNumber", { hint: "Needed when you have a driver's license." })}
          </div>
        </div>
        <YesNo field={fields.hasReliableTransportation} />
      </Section>

      <Section id="job-heading" title="Job Details">
        {select("desiredRole", DESIRED_ROLES)}
        {text("desiredSalary", { hint: "For example $25 an hour." })}
        <div className="sm:col-span-2">
          <Label field={fields.resume} optional />
          <input
            {...getInputProps(fields.resume, { type: "file" })}
            key={fields.resume.key}
            accept="application/pdf,.pdf"
            aria-invalid={fields.resume.errors || resumeMessage ? true : undefined}
            aria-describedby={fields.resume.errors || resumeMessage ? fields.resume.errorId : undefined}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file && file.size > RESUME_MAX_BYTES) {
                event.currentTarget.value = "";
                setResumeMessage(RESUME_TOO_LARGE_MESSAGE);
              } else {
                setResumeMessage(undefined);
              }
            }}
            className={`${inputClass} file:mr-4 file:rounded-full file:border-0 file:bg-brand-700 file:px-4 file:py-1.5 file:font-semibold file:text-white`}
          />
          {resumeMessage ? (
            <p id={fields.resume.errorId} role="alert" className="mt-1 text-sm font-medium text-red-800">
              {resumeMessage}
            </p>
          ) : (
            <FieldError id={fields.resume.errorId} errors={fields.resume.errors} />
          )}
        </div>
      </Section>

      <Section id="additional-heading" title="Additional Information">
        {select("educationLevel", EDUCATION_LEVELS)}
        <div>
          <Label field={fields.experienceLevel} hint="Whole years; 0 is fine." />
          <input
            {...getInputProps(fields.experienceLevel, { type: "number" })}
            key={fields.experienceLevel.key}
            min={0}
            step={1}
            inputMode="numeric"
            className={inputClass}
          />
          <FieldError
            id={fields.experienceLevel.errorId}
            errors={fields.experienceLevel.errors}
            requiredText={REQUIRED_TEXT}
          />
        </div>
        <div>
          <Label field={fields.desiredStartDate} />
          <input
            {...getInputProps(fields.desiredStartDate, { type: "date" })}
            key={fields.desiredStartDate.key}
            className={inputClass}
          />
          <FieldError
            id={fields.desiredStartDate.errorId}
            errors={fields.desiredStartDate.errors}
            requiredText={REQUIRED_TEXT}
          />
        </div>
        <YesNo field={fields.isMilitary} />
        {longText("certifications", 'List your licenses and certifications, or write "None".')}
        {longText("vocationalTraining", 'Apprenticeships, trade or vocational school, or write "None".')}
      </Section>

      <Section id="availability-heading" title="Availability">
        <YesNo field={fields.willingToTravel} />
        <YesNo field={fields.willingToWorkOvertime} />
        <YesNo field={fields.willingToWorkNightsWeekends} />
      </Section>

      <Section id="background-heading" title="Background Information">
        <div className="follow-up grid gap-5 sm:col-span-2">
          <div className="follow-up-question">
            <YesNo field={fields.hasCriminalBackground} />
          </div>
          <div className="follow-up-answer">
            {longText("criminalBackgroundExplanation", "Needed when you answered yes.")}
          </div>
        </div>
      </Section>

      <SubmissionGuardFields idPrefix="application" guards={guards} />
      <div>
        <button type="submit" disabled={busy} className="button-primary disabled:cursor-wait disabled:opacity-70">
          {busy ? "Submitting..." : "Submit Application"}
        </button>
      </div>
    </Form>
  );
}
