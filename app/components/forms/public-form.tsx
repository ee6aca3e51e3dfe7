import { type DefaultValue, getFormProps, useForm } from "@conform-to/react";
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from "react";
import { Form, useActionData } from "react-router";
import type * as z from "zod/mini";
import { ConsentNote } from "~/components/consent-note";
import type { FormActionResult } from "~/forms/action-result";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { FormDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { parseForm } from "~/forms/parse-form";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { type GuardValues, SubmissionGuardFields, useSubmissionGuards } from "~/forms/submission-guard-fields";
import { FormOutcome, useActionAtOutcome } from "./form-outcome";
import { SubmitButton } from "./submit-button";
import { usePending } from "./use-pending";

type PublicDefinition<Schema extends z.ZodMiniObject> = Pick<FormDefinition<Schema>, "schema" | "files" | "messages">;
type PublicAnswer = FormActionResult | BrowserAnswer;

/**
 * A public form's state in the browser: the route's answer (hidden from a new press until the next one comes),
 * Conform's form checked by the form's one schema with its length caps as maxlength, the double-submit key and
 * fill-time token (a new key after a success), whether it is being sent, and the form's line for a missing answer.
 */
export function usePublicForm<Schema extends z.ZodMiniObject>(
  definition: PublicDefinition<Schema>,
  options: { defaultValue?: DefaultValue<Record<string, unknown>> } = {},
) {
  const actionData = useActionData<PublicAnswer>();
  const busy = usePending();
  const { guards, renew, onFormTouched } = useSubmissionGuards();
  const [answerShown, setAnswerShown] = useState(true);
  useEffect(() => {
    setAnswerShown(true);
    if (actionData?.status === "success") renew();
  }, [actionData, renew]);
  const constraint = useMemo(() => lengthConstraintsOf(definition.schema), [definition.schema]);
  const [form, fields] = useForm({
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: options.defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    constraint,
    onValidate: ({ formData }) => parseForm(formData, definition.schema),
  });
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));
  return {
    form,
    fields,
    busy,
    guards,
    onFormTouched,
    /** The answer on show: none from the press of send until the next answer comes. */
    answer: answerShown ? actionData : undefined,
    hideAnswer: () => setAnswerShown(false),
    missing: anyMissing ? definition.messages.missing : undefined,
    multipart: definition.files.length > 0,
  };
}

type PublicFormState = ReturnType<typeof usePublicForm>;

/**
 * Every public React form's frame, as StaffForm is the staff forms': a plain POST to its page (multipart when
 * it has files) that works without JavaScript and comes back at the outcome; with it, missing answers are
 * marked before anything is sent and the answer comes in place, in view and focus. Above the fields the outcome,
 * below them the send button (its busy words while sending) and the consent line.
 */
export function PublicForm({
  state,
  idPrefix,
  success,
  submitLabel,
  busyLabel,
  onSubmit,
  className,
  children,
}: {
  state: PublicFormState;
  /** Makes the ids of the form's hidden fields its own. */
  idPrefix: string;
  success: (answer: Extract<PublicAnswer, { status: "success" }>) => ReactNode;
  submitLabel: string;
  busyLabel: string;
  /** The form's own step before it is checked and sent. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  className?: string;
  children: ReactNode;
}) {
  const action = useActionAtOutcome();
  return (
    <Form
      method="post"
      action={action}
      encType={state.multipart ? "multipart/form-data" : undefined}
      preventScrollReset
      {...getFormProps(state.form)}
      onFocus={state.onFormTouched}
      onSubmit={(event) => {
        onSubmit?.(event);
        state.hideAnswer();
        state.form.onSubmit(event);
      }}
      className={className}
    >
      <FormOutcome
        answer={state.answer}
        pending={state.busy}
        missing={state.missing}
        className="empty:hidden"
        success={success}
      />
      {children}
      <PublicFormEnd idPrefix={idPrefix} guards={state.guards} busy={state.busy} busyLabel={busyLabel}>
        {submitLabel}
      </PublicFormEnd>
    </Form>
  );
}

/**
 * The end of every public form: the honeypot and guard values, the send button and the consent line under it.
 * The free-estimate form, rendered without React in the browser, ends with it too.
 */
export function PublicFormEnd({
  idPrefix,
  guards,
  busy,
  busyLabel,
  className,
  children,
}: {
  idPrefix: string;
  guards: GuardValues;
  busy: boolean;
  busyLabel: string;
  className?: string;
  children: string;
}) {
  return (
    <>
      <SubmissionGuardFields idPrefix={idPrefix} guards={guards} />
      <div className={className}>
        <SubmitButton busy={busy} busyLabel={busyLabel}>
          {children}
        </SubmitButton>
        <ConsentNote className="mt-3" />
      </div>
    </>
  );
}
