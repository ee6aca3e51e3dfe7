import type { ReactNode } from "react";
import { Form, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { usePending } from "~/components/forms/use-pending";
import type { StaffFormResult } from "~/forms/staff-form-result";

/** The action's answer when it is to this intent's form (a staff account page has several), and its field errors. */
export function useIntentAnswer(intent: string) {
  const result = useActionData<StaffFormResult>();
  const outcome = result?.intent === intent ? result : undefined;
  return { outcome, fieldErrors: outcome?.fieldErrors ?? {} };
}

/** One of the staff list's forms: its intent, its answer above its fields, and its button saying busy. */
export function AnsweredForm({
  intent,
  label,
  busyLabel,
  children,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  children: ReactNode;
}) {
  const { outcome } = useIntentAnswer(intent);
  const busy = usePending(intent);
  return (
    <Form method="post" className="mt-4 space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <OutcomeAlert outcome={outcome} />
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
    </Form>
  );
}
