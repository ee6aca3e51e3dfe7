import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import type * as z from "zod/mini";
import { OutcomeAlert } from "~/components/forms/alert";
import { DefinedFields } from "~/components/forms/defined-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { usePending } from "~/components/forms/use-pending";
import type { FormActionResult } from "~/forms/action-result";
import { companyToday } from "~/forms/calendar-fields";
import type { FieldDefinition } from "~/forms/definition";
import type { FormMessages } from "~/forms/messages";
import { parseForm } from "~/forms/parse-form";
import { REQUIRED_MESSAGE } from "~/forms/text-field";

const PAST_DATE_NOTE = "This date has passed. That is fine for an appointment recorded after the fact.";

/** The sections of a form's fields, in the order they first appear. */
const sectionsOf = (fields: readonly FieldDefinition[]) => [
  ...new Set(fields.flatMap((field) => (field.section ? [field.section] : []))),
];

/**
 * A staff request form (the internal estimate request, the job request): its defined fields by section in one
 * column on a phone, the answer in a banner above them (green when it says "successfully", red otherwise,
 * cleared while a new send is under way), and Submit, which reads "Submitting..." while busy. A success
 * clears the form back to `defaultValue`; a failure keeps every answer. Without JavaScript it is a plain POST.
 */
export function StaffRequestForm({
  fields: definitions,
  schema,
  messages,
  defaultValue,
  closing,
}: {
  fields: readonly FieldDefinition[];
  schema: z.ZodMiniType;
  messages: FormMessages;
  defaultValue?: Record<string, string>;
  closing: string;
}) {
  const actionData = useActionData<FormActionResult>();
  const busy = usePending();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
  const byName = fields as unknown as Record<string, FieldMetadata<unknown>>;
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  const message = busy
    ? undefined
    : anyMissing
      ? messages.missing
      : actionData?.status === "success"
        ? `${messages.success} Reference ${actionData.reference}.`
        : actionData?.message;
  const [dates, setDates] = useState<Record<string, string>>({});
  useEffect(() => {
    if (actionData?.status === "success") setDates({});
  }, [actionData]);
  const today = companyToday();
  // A date already past gets a note beside it, not an error: offices record appointments late.
  const pastDateNotes = Object.fromEntries(
    Object.entries(dates).flatMap(([name, value]) => (value && value < today ? [[name, PAST_DATE_NOTE]] : [])),
  );

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onInput={(event) => {
        const input = event.target;
        if (input instanceof HTMLInputElement && input.type === "date") {
          setDates((current) => ({ ...current, [input.name]: input.value }));
        }
      }}
      className="mt-6 grid gap-6"
    >
      <OutcomeAlert
        outcome={message ? { status: message.includes("successfully") ? "success" : "error", message } : undefined}
      />
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
