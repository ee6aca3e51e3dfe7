import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { type ReactNode, useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import { ConsentNote } from "~/components/consent-note";
import { DefinedField, DefinedFields, labellingOf } from "~/components/forms/defined-field";
import { FileField } from "~/components/forms/file-field";
import { FormOutcome, useActionAtOutcome } from "~/components/forms/form-outcome";
import { SubmitButton } from "~/components/forms/submit-button";
import { usePending } from "~/components/forms/use-pending";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { parseForm } from "~/forms/parse-form";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { SubmissionGuardFields, useSubmissionGuards } from "~/forms/submission-guard-fields";
import { type ApplicationActionResult, applicationForm } from "./definition";
import {
  type ApplicationFieldName,
  applicationSchema,
  FOLLOW_UPS,
  RESUME_MAX_BYTES,
  RESUME_TOO_LARGE_MESSAGE,
} from "./schema";

/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(applicationSchema);

const SECTIONS = [...new Set(applicationForm.fields.map((definition) => definition.section))];

function definitionOf(name: ApplicationFieldName): FieldDefinition {
  const definition = applicationForm.fields.find((candidate) => candidate.name === name);
  if (!definition) throw new Error(`The application has no field named ${name}.`);
  return definition;
}

/**
 * A yes/no question and the one it leads to, shown once yes is chosen (the .follow-up rule in app.css, with
 * or without JavaScript). The follow-up is needed then, so it is not marked optional.
 */
function FollowUp({
  question,
  answer,
  fields,
}: {
  question: ApplicationFieldName;
  answer: ApplicationFieldName;
  fields: Record<string, FieldMetadata<unknown>>;
}) {
  const answerDefinition = definitionOf(answer);
  return (
    <div className={answerDefinition.wide ? "follow-up grid gap-5 sm:col-span-2" : "follow-up grid gap-5"}>
      <div className="follow-up-question">
        <DefinedField definition={definitionOf(question)} field={fieldOf(fields, question)} sayRequired />
      </div>
      <div className="follow-up-answer">
        <DefinedField
          definition={{ ...answerDefinition, optional: false }}
          field={fieldOf(fields, answer)}
          sayRequired
        />
      </div>
    </div>
  );
}

function fieldOf(fields: Record<string, FieldMetadata<unknown>>, name: ApplicationFieldName) {
  const field = fields[name];
  if (!field) throw new Error(`The application form has no field named ${name}.`);
  return field;
}

/**
 * The job application, drawn from its definition. A plain multipart HTML form that works without JavaScript;
 * with it, missing answers are marked before anything is sent, an oversized resume is refused at once, and
 * the answer comes in place.
 */
/** `nextStep`: what happens after an application is sent, as the site's content says it. */
export function ApplicationForm({ nextStep }: { nextStep: string }) {
  const actionData = useActionData<ApplicationActionResult | BrowserAnswer>();
  const busy = usePending();
  const action = useActionAtOutcome();
  const { guards, renew, onFormTouched } = useSubmissionGuards();
  const [answerShown, setAnswerShown] = useState(true);
  const [resumeMessage, setResumeMessage] = useState<string>();

  useEffect(() => {
    setAnswerShown(true);
    if (actionData?.status === "success") renew();
  }, [actionData, renew]);

  const [form, fields] = useForm({
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { hasDriversLicense: "no" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    constraint: LENGTH_LIMITS,
    onValidate: ({ formData }) => parseForm(formData, applicationSchema),
  });

  // A refused resume's message comes into view beside its field, after the banner has come into view (the
  // banner's part runs its effect first): the refused file is let go, so the next one is chosen afresh.
  const resumeId = fields.resume.id;
  const resumeRefused = actionData?.status === "error" && "problems" in actionData && actionData.problems?.resume;
  useEffect(() => {
    if (!answerShown || !resumeRefused) return;
    const resume = document.getElementById(resumeId);
    if (!(resume instanceof HTMLInputElement)) return;
    resume.value = "";
    resume.focus();
  }, [answerShown, resumeRefused, resumeId]);
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const answer = answerShown ? actionData : undefined;
  const resumeProblem =
    resumeMessage ?? (answer?.status === "error" && "problems" in answer ? answer.problems?.resume : undefined);

  const ownRendering: Record<string, ReactNode> = {
    resume: (
      <FileField
        {...labellingOf(definitionOf("resume"))}
        field={fields.resume}
        accept={definitionOf("resume").accepts?.type.accept}
        errors={resumeProblem ? [resumeProblem] : undefined}
        announceError={resumeProblem !== undefined}
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
    ),
  };
  for (const [question, followUp] of FOLLOW_UPS) {
    ownRendering[question] = <FollowUp question={question} answer={followUp} fields={fields} />;
    ownRendering[followUp] = null;
  }

  return (
    <Form
      method="post"
      action={action}
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
      <FormOutcome
        answer={answer}
        pending={busy}
        missing={anyMissing ? applicationForm.messages.missing : undefined}
        className="empty:hidden"
        success={(success) => (
          <>
            <strong className="font-semibold">{applicationForm.messages.success}</strong> Your reference number is{" "}
            <strong className="font-mono">{success.reference}</strong>.
            <span className="mt-2 block font-normal">{nextStep}</span>
          </>
        )}
      />

      {SECTIONS.map((section) => (
        <DefinedFields
          key={section}
          definitions={applicationForm.fields}
          fields={fields}
          section={section}
          sayRequired
          replace={ownRendering}
        />
      ))}

      <SubmissionGuardFields idPrefix="application" guards={guards} />
      <div>
        <SubmitButton busy={busy} busyLabel="Submitting...">
          Submit Application
        </SubmitButton>
        <ConsentNote className="mt-3" />
      </div>
    </Form>
  );
}
