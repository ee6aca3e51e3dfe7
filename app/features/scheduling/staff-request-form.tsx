import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { useEffect, useMemo, useState } from "react";
import { Form, useActionData } from "react-router";
import type * as z from "zod/mini";
import { DefinedFields } from "~/components/forms/defined-field";
import { DraftStatus } from "~/components/forms/draft-status";
import { FormOutcome, useActionAtOutcome } from "~/components/forms/form-outcome";
import { SubmitButton } from "~/components/forms/submit-button";
import { usePending } from "~/components/forms/use-pending";
import { useStaffFormDraft } from "~/components/staff/use-staff-form-draft";
import { companyToday } from "~/features/scheduling/calendar-fields";
import type { FormActionResult } from "~/forms/action-result";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import type { FormMessages } from "~/forms/messages";
import { parseForm } from "~/forms/parse-form";
import { REQUIRED_MESSAGE } from "~/forms/required-message";

const PAST_DATE_NOTE = "This date has passed. That is fine for an appointment recorded after the fact.";

/** The sections of a form's fields, in the order they first appear. */
const sectionsOf = (fields: readonly FieldDefinition[]) => [
  ...new Set(fields.flatMap((field) => (field.section ? [field.section] : []))),
];

/**
 * A staff request form (the internal estimate request, the job request): its defined fields by section in one
 * column on a phone, the answer in a banner above them (cleared while a new send is under way, then moved into
 * view), and Submit, which reads "Submitting..." while busy. What is typed is kept on the device until the
 * server has it. A success clears the form back to `defaultValue`; a failure keeps every answer. Without
 * JavaScript it is a plain POST that comes back at the answer.
 */
export function StaffRequestForm({
  formType,
  fields: definitions,
  schema,
  messages,
  defaultValue,
  closing,
}: {
  formType: string;
  fields: readonly FieldDefinition[];
  schema: z.ZodMiniObject;
  messages: FormMessages;
  defaultValue?: Record<string, string>;
  closing: string;
}) {
  const actionData = useActionData<FormActionResult | BrowserAnswer>();
  const busy = usePending();
  const { formRef, draft } = useStaffFormDraft(formType, actionData);
  const action = useActionAtOutcome();
  const lengthLimits = useMemo(() => lengthConstraintsOf(schema), [schema]);
  const [form, fields] = useForm({
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue,
    constraint: lengthLimits,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
  const byName = fields as unknown as Record<string, FieldMetadata<unknown>>;
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const [dates, setDates] = useState<Record<string, string>>({});
  useEffect(() => {
    if (actionData?.status === "success") setDates({});
  }, [actionData]);
  // A date already past gets a note beside it, not an error: offices record appointments late. Today is worked
  // out only once a date is typed: the browser's first date formatter takes tens of milliseconds to make.
  const typedDates = Object.entries(dates).filter(([, value]) => value !== "");
  const today = typedDates.length > 0 ? companyToday() : "";
  const pastDateNotes = Object.fromEntries(
    typedDates.flatMap(([name, value]) => (value < today ? [[name, PAST_DATE_NOTE]] : [])),
  );

  return (
    <Form
      method="post"
      action={action}
      ref={formRef}
      {...getFormProps(form)}
      onInput={(event) => {
        const input = event.target;
        if (input instanceof HTMLInputElement && input.type === "date") {
          setDates((current) => ({ ...current, [input.name]: input.value }));
        }
      }}
      className="mt-6 grid gap-6"
    >
      <FormOutcome
        answer={actionData}
        pending={busy}
        missing={anyMissing ? messages.missing : undefined}
        draft={draft}
        success={(answer) => `${messages.success} Reference ${answer.reference}.`}
      />
      <DraftStatus draft={draft} id={`${formType}-draft`} />
      {sectionsOf(definitions).map((section) => (
        <DefinedFields
          key={section}
          definitions={definitions}
          fields={byName}
          section={section}
          sayRequired
          nativeRequired
          notes={pastDateNotes}
        />
      ))}
      <p className="text-slate-800">{closing}</p>
      <div>
        <SubmitButton busy={busy} busyLabel="Submitting...">
          Submit
        </SubmitButton>
      </div>
    </Form>
  );
}
