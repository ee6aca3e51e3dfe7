import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { useMemo } from "react";
import { useActionData } from "react-router";
import type * as z from "zod/mini";
import { DefinedFields } from "~/components/forms/defined-field";
import { StaffForm } from "~/components/forms/staff-form";
import { useStaffForm } from "~/components/forms/use-staff-form";
import type { FormActionResult } from "~/forms/action-result";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import type { FormMessages } from "~/forms/messages";
import { parseForm } from "~/forms/parse-form";
import type { KeptAnswer } from "~/forms/queue-answer";
import { REQUIRED_MESSAGE } from "~/forms/required-message";

/** The sections of a form's fields, in the order they first appear. */
const sectionsOf = (fields: readonly FieldDefinition[]) => [
  ...new Set(fields.flatMap((field) => (field.section ? [field.section] : []))),
];

/**
 * A staff request form (the internal estimate request, the job request): its defined fields by section in one
 * column on a phone, the answer in a banner above them (cleared while a new send is under way, then moved into
 * view), and Submit, which reads "Submitting..." while busy. An answer worth a second look (a date already past,
 * a short phone number: the fields' soft checks) is pointed out on the first press and sent on the second. What is
 * typed is kept on the device until the server has it. A success clears the form back to `defaultValue`; a failure keeps every answer. Without
 * JavaScript it is a plain POST that comes back at the answer.
 */
export function StaffRequestForm({
  definition,
  defaultValue,
  closing,
}: {
  definition: {
    type: string;
    label: string;
    fields: readonly FieldDefinition[];
    schema: z.ZodMiniObject;
    messages: FormMessages;
  };
  defaultValue?: Record<string, string>;
  closing: string;
}) {
  const { fields: definitions, schema, messages } = definition;
  const actionData = useActionData<FormActionResult | BrowserAnswer | KeptAnswer>();
  const staffForm = useStaffForm(definition, actionData);
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

  return (
    <StaffForm
      form={staffForm}
      answer={actionData}
      missing={anyMissing ? messages.missing : undefined}
      success={(answer) => `${messages.success} Reference ${answer.reference}.`}
      submitLabel="Submit"
      busyLabel="Submitting..."
      {...getFormProps(form)}
      className="mt-6 grid gap-6"
    >
      {sectionsOf(definitions).map((section) => (
        <DefinedFields
          key={section}
          definitions={definitions}
          fields={byName}
          section={section}
          sayRequired
          nativeRequired
          warnings={staffForm.softChecks.warnings}
        />
      ))}
      <p className="text-slate-800">{closing}</p>
    </StaffForm>
  );
}
