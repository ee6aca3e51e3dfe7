import type { FieldMetadata } from "@conform-to/react";
import { type ReactNode, useEffect, useState } from "react";
import { DefinedField, DefinedFields, labellingOf } from "~/components/forms/defined-field";
import { FileField } from "~/components/forms/file-field";
import { PublicForm, usePublicForm } from "~/components/forms/public-form";
import type { FieldDefinition } from "~/forms/definition";
import { applicationForm } from "./definition";
import { type ApplicationFieldName, FOLLOW_UPS, RESUME_MAX_BYTES, RESUME_TOO_LARGE_MESSAGE } from "./schema";

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
 * The resume's picker: a file over the size cap is refused as it is chosen, and a resume the server refused is
 * let go and its message brought into view beside it, after the banner has come into view (the banner's part runs
 * its effect first), so the next one is chosen afresh.
 */
function ResumeField({
  field,
  answer,
  tooLarge,
  onTooLarge,
}: {
  field: FieldMetadata<unknown>;
  answer: ApplicationState["answer"];
  /** The message of a file over the cap, chosen since the last press of send. */
  tooLarge: string | undefined;
  onTooLarge: (message: string | undefined) => void;
}) {
  const refused = answer?.status === "error" && "problems" in answer ? answer.problems?.resume : undefined;
  useEffect(() => {
    if (!refused) return;
    const resume = document.getElementById(field.id);
    if (!(resume instanceof HTMLInputElement)) return;
    resume.value = "";
    resume.focus();
  }, [refused, field.id]);
  const problem = tooLarge ?? refused;
  return (
    <FileField
      {...labellingOf(definitionOf("resume"))}
      field={field}
      accept={definitionOf("resume").accepts?.type.accept}
      errors={problem ? [problem] : undefined}
      announceError={problem !== undefined}
      onChange={(event) => {
        const file = event.currentTarget.files?.[0];
        if (file && file.size > RESUME_MAX_BYTES) {
          event.currentTarget.value = "";
          onTooLarge(RESUME_TOO_LARGE_MESSAGE);
        } else {
          onTooLarge(undefined);
        }
      }}
    />
  );
}

type ApplicationState = ReturnType<typeof usePublicForm>;
type ResumeLimit = { tooLarge: string | undefined; onTooLarge: (message: string | undefined) => void };

/** The fields drawn in the application's own way: the resume, and each yes/no question with its follow-up. */
function ownRenderingOf(state: ApplicationState, resume: ResumeLimit): Record<string, ReactNode> {
  const ownRendering: Record<string, ReactNode> = {
    resume: <ResumeField field={fieldOf(state.fields, "resume")} answer={state.answer} {...resume} />,
  };
  for (const [question, followUp] of FOLLOW_UPS) {
    ownRendering[question] = <FollowUp question={question} answer={followUp} fields={state.fields} />;
    ownRendering[followUp] = null;
  }
  return ownRendering;
}

/**
 * The job application, drawn from its definition in the public form's frame; an oversized resume is refused
 * at once. `nextStep`: what happens after an application is sent, as the site's content says it.
 */
export function ApplicationForm({ nextStep }: { nextStep: string }) {
  const state = usePublicForm(applicationForm, { defaultValue: { hasDriversLicense: "no" } });
  const [tooLarge, onTooLarge] = useState<string>();
  const ownRendering = ownRenderingOf(state, { tooLarge, onTooLarge });
  return (
    <PublicForm
      state={state}
      idPrefix="application"
      submitLabel="Submit Application"
      busyLabel="Submitting..."
      // Spec: each attempt starts at the top with earlier messages and highlights cleared.
      onSubmit={() => {
        window.scrollTo({ top: 0 });
        onTooLarge(undefined);
      }}
      className="mt-8 grid gap-6"
      success={(success) => (
        <>
          <strong className="font-semibold">{applicationForm.messages.success}</strong> Your reference number is{" "}
          <strong className="font-mono">{success.reference}</strong>.
          <span className="mt-2 block font-normal">{nextStep}</span>
        </>
      )}
    >
      {SECTIONS.map((section) => (
        <DefinedFields
          key={section}
          definitions={applicationForm.fields}
          fields={state.fields}
          section={section}
          sayRequired
          replace={ownRendering}
        />
      ))}
    </PublicForm>
  );
}
