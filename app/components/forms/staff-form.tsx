import type { FocusEvent, FormEvent, FormHTMLAttributes, ReactNode, RefObject } from "react";
import { Form } from "react-router";
import { SIGNED_IN_AS_FIELD } from "~/forms/signed-in-as";
import { SOFT_CHECKS_MESSAGE, SOFT_CHECKS_SEEN_FIELD } from "~/forms/soft-checks";
import { DraftStatus } from "./draft-status";
import { type AnsweredForm, FormOutcome, useActionAtOutcome } from "./form-outcome";
import { SubmitButton } from "./submit-button";
import type { DeviceFormDraft } from "./use-device-form";
import { usePending } from "./use-pending";
import { isSendPress, type SoftChecks } from "./use-soft-checks";

type StaffFormProps<Answer extends AnsweredForm> = {
  /** What useStaffForm gave the form: its ref, its draft on the device, who fills it in, its soft checks. */
  form: {
    formRef: RefObject<HTMLFormElement | null>;
    draft: DeviceFormDraft;
    userId: number | undefined;
    multipart: boolean;
    softChecks: SoftChecks;
    keepForNext: (form: HTMLFormElement) => void;
  };
  /** The answer the outcome shows. */
  answer: Answer | undefined;
  success: (answer: Extract<Answer, { status: "success" }>) => ReactNode;
  /** The browser's own check found an answer missing: the form's line for it. */
  missing?: string;
  submitLabel: string;
  busyLabel: string;
  /**
   * The form sends itself (the checklist, with upload progress, to an endpoint that answers in JSON): its
   * handler, and whether it is sending. Otherwise it posts through its route's action.
   */
  sendsItself?: { onSubmit: (event: React.FormEvent<HTMLFormElement>) => void; busy: boolean };
  /** Beside the send button: the upload's progress, a problem with the whole send. */
  besideSubmit?: ReactNode;
  children: ReactNode;
} & Omit<FormHTMLAttributes<HTMLFormElement>, "action" | "method" | "children" | "ref" | "encType"> & {
    encType?: "multipart/form-data";
  };

/**
 * Every staff form's frame, built on its life on the device (useStaffForm): the outcome in view above it, the
 * draft's line with Discard and the double-submit key, the fields, and the send button, which says what is
 * happening while busy, and the name of the person filling it in. Without JavaScript it is a plain POST to its
 * page (multipart when the form has files) that comes back at the outcome; a form that sends itself keeps that
 * for a browser without JavaScript. A press with an answer worth a second look is held back, once, with its
 * warnings (useSoftChecks); the fields whose warnings were seen go with the next as a hidden field.
 */
export function StaffForm<Answer extends AnsweredForm>({
  form: { formRef, draft, userId, multipart, softChecks, keepForNext },
  answer,
  success,
  missing,
  submitLabel,
  busyLabel,
  sendsItself,
  besideSubmit,
  children,
  onSubmit,
  onInput,
  onBlur,
  ...formProps
}: StaffFormProps<Answer>) {
  const action = useActionAtOutcome();
  const posting = usePending();
  const busy = sendsItself ? sendsItself.busy : posting;
  const draftLine = `${formProps.id ?? "staff-form"}-draft`;
  const encType = multipart ? "multipart/form-data" : undefined;
  const content = (
    <>
      <FormOutcome
        answer={answer}
        pending={busy}
        missing={missing ?? (softChecks.held ? SOFT_CHECKS_MESSAGE : undefined)}
        success={success}
      />
      <DraftStatus draft={draft} id={draftLine} />
      {userId === undefined ? null : <input type="hidden" name={SIGNED_IN_AS_FIELD} value={userId} />}
      {softChecks.active ? (
        <input type="hidden" name={SOFT_CHECKS_SEEN_FIELD} value={softChecks.seen.join(" ")} />
      ) : null}
      {children}
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton busy={busy} busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
        {besideSubmit}
      </div>
    </>
  );
  const send = sendsItself?.onSubmit ?? onSubmit;
  // The soft checks first, so their warnings show beside the form's own problems on one press.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const held = softChecks.holdBack(event);
    if (!held && isSendPress(event)) keepForNext(event.currentTarget);
    if (!held || !sendsItself) send?.(event);
  };
  const handlers = {
    onSubmit: submit,
    onInput: (event: FormEvent<HTMLFormElement>) => {
      softChecks.onInput(event);
      onInput?.(event);
    },
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      softChecks.onBlur(event);
      onBlur?.(event);
    },
  };
  return sendsItself ? (
    <form ref={formRef} method="post" action={action} encType={encType} {...formProps} {...handlers}>
      {content}
    </form>
  ) : (
    <Form ref={formRef} method="post" action={action} encType={encType} {...formProps} {...handlers}>
      {content}
    </Form>
  );
}
