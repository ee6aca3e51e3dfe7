import { getFormProps, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { ChoiceField } from "~/components/forms/choice-field";
import { requiredTextFor } from "~/components/forms/defined-field";
import { FileField } from "~/components/forms/file-field";
import { FormSection } from "~/components/forms/form-section";
import { SelectField } from "~/components/forms/select-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField, type TextKind } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { parseForm } from "~/features/forms/parse-form";
import { SubmissionGuardFields, useSubmissionGuards } from "~/features/forms/submission-guard-fields";
import { REQUIRED_MESSAGE } from "~/features/forms/text-field";
import { APPLICATION_FIELD_LABELS as LABELS } from "./fields";
import {
  type ApplicationActionResult,
  applicationSchema,
  DESIRED_ROLES,
  EDUCATION_LEVELS,
  MISSING_FIELDS_MESSAGE,
  RESUME_MAX_BYTES,
  RESUME_TOO_LARGE_MESSAGE,
  SUCCESS_MESSAGE,
} from "./schema";

const REQUIRED_TEXT = requiredTextFor("text");
const CHOOSE_TEXT = requiredTextFor("yesNo");
const optionsOf = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/**
 * The job application. A plain multipart HTML form that works without JavaScript; with it, missing answers
 * are marked before anything is sent, an oversized resume is refused at once, and the answer comes in place.
 */
export function ApplicationForm() {
  const actionData = useActionData<ApplicationActionResult>();
  const busy = usePending();
  const { guards, renew } = useSubmissionGuards();
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
  const alert = anyMissing ? MISSING_FIELDS_MESSAGE : answer?.status === "error" ? answer.message : undefined;
  const success = answer?.status === "success" ? answer : undefined;

  const text = (
    name: "firstName" | "lastName" | "email" | "phone" | "address" | "desiredSalary" | "licenseNumber",
    options: { kind?: TextKind; autoComplete?: string; hint?: string; wide?: boolean } = {},
  ) => <TextField field={fields[name]} label={LABELS[name]} requiredText={REQUIRED_TEXT} {...options} />;

  const longText = (name: "certifications" | "vocationalTraining" | "criminalBackgroundExplanation", hint?: string) => (
    <TextAreaField field={fields[name]} label={LABELS[name]} hint={hint} requiredText={REQUIRED_TEXT} wide />
  );

  const select = (name: "desiredRole" | "educationLevel", options: readonly string[]) => (
    <SelectField
      field={fields[name]}
      label={LABELS[name]}
      options={optionsOf(options)}
      emptyOption="Choose one"
      requiredText={REQUIRED_TEXT}
    />
  );

  const yesNo = (
    name:
      | "hasDriversLicense"
      | "hasReliableTransportation"
      | "isMilitary"
      | "willingToTravel"
      | "willingToWorkOvertime"
      | "willingToWorkNightsWeekends"
      | "hasCriminalBackground",
  ) => <ChoiceField field={fields[name]} label={LABELS[name]} requiredText={CHOOSE_TEXT} />;

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      preventScrollReset
      {...getFormProps(form)}
      onSubmit={(event) => {
        // Spec: each attempt starts at the top with earlier messages and highlights cleared.
        window.scrollTo({ top: 0 });
        setAnswerShown(false);
        setResumeMessage(undefined);
        form.onSubmit(event);
      }}
      className="mt-8 grid gap-6"
    >
      <AlertRegion className="empty:hidden">
        {alert && <Alert tone="error">{alert}</Alert>}
        {success && (
          <Alert tone="success">
            <strong className="font-semibold">{SUCCESS_MESSAGE}</strong> Your reference number is{" "}
            <strong className="font-mono">{success.reference}</strong>.
          </Alert>
        )}
      </AlertRegion>

      <FormSection title="Personal Information">
        {text("firstName", { autoComplete: "given-name" })}
        {text("lastName", { autoComplete: "family-name" })}
        {text("email", { kind: "email", autoComplete: "email" })}
        {text("phone", { kind: "tel", autoComplete: "tel" })}
        {text("address", { autoComplete: "street-address", wide: true })}
      </FormSection>

      <FormSection title="Transportation">
        <div className="follow-up grid gap-5">
          <div className="follow-up-question">{yesNo("hasDriversLicense")}</div>
          <div className="follow-up-answer">
            {text("licenseNumber", { hint: "Needed when you have a driver's license." })}
          </div>
        </div>
        {yesNo("hasReliableTransportation")}
      </FormSection>

      <FormSection title="Job Details">
        {select("desiredRole", DESIRED_ROLES)}
        {text("desiredSalary", { hint: "For example $25 an hour." })}
        <FileField
          field={fields.resume}
          label={LABELS.resume}
          optional
          wide
          accept="application/pdf,.pdf"
          errors={resumeMessage ? [resumeMessage] : undefined}
          announceError={resumeMessage !== undefined}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file && file.size > RESUME_MAX_BYTES) {
              event.currentTarget.value = "";
              setResumeMessage(RESUME_TOO_LARGE_MESSAGE);
            } else {
              setResumeMessage(undefined);
            }
          }}
        />
      </FormSection>

      <FormSection title="Additional Information">
        {select("educationLevel", EDUCATION_LEVELS)}
        <TextField
          field={fields.experienceLevel}
          label={LABELS.experienceLevel}
          kind="number"
          hint="Whole years; 0 is fine."
          requiredText={REQUIRED_TEXT}
        />
        <TextField
          field={fields.desiredStartDate}
          label={LABELS.desiredStartDate}
          kind="date"
          requiredText={REQUIRED_TEXT}
        />
        {yesNo("isMilitary")}
        {longText("certifications", 'List your licenses and certifications, or write "None".')}
        {longText("vocationalTraining", 'Apprenticeships, trade or vocational school, or write "None".')}
      </FormSection>

      <FormSection title="Availability">
        {yesNo("willingToTravel")}
        {yesNo("willingToWorkOvertime")}
        {yesNo("willingToWorkNightsWeekends")}
      </FormSection>

      <FormSection title="Background Information">
        <div className="follow-up grid gap-5 sm:col-span-2">
          <div className="follow-up-question">{yesNo("hasCriminalBackground")}</div>
          <div className="follow-up-answer">
            {longText("criminalBackgroundExplanation", "Needed when you answered yes.")}
          </div>
        </div>
      </FormSection>

      <SubmissionGuardFields idPrefix="application" guards={guards} />
      <div>
        <SubmitButton busy={busy} busyLabel="Submitting...">
          Submit Application
        </SubmitButton>
      </div>
    </Form>
  );
}
