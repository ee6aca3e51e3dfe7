import type { ReactNode } from "react";
import { Form, useActionData } from "react-router";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { OutcomeAlert } from "./alert";
import { SubmitButton } from "./submit-button";
import { usePending } from "./use-pending";

/** The action's answer when it is to this intent's form (a page may have several), and its field errors. */
export function useIntentAnswer(intent: string) {
  const result = useActionData<StaffFormResult>();
  const outcome = result?.intent === intent ? result : undefined;
  return { outcome, fieldErrors: outcome?.fieldErrors ?? {} };
}

/**
 * One of a page's small forms, each one action: posts its intent with its fields, says busy while it runs,
 * and shows the answer beside itself (on a phone the top of the page is far away): under the button, or above
 * the fields of a form with several.
 */
export function IntentForm({
  intent,
  label,
  busyLabel,
  children,
  showOutcome = true,
  outcomeAbove = false,
  className = "space-y-3",
}: {
  intent: string;
  label: string;
  busyLabel: string;
  children?: ReactNode;
  /** Off where the page shows the answers of many such forms in one place. */
  showOutcome?: boolean;
  outcomeAbove?: boolean;
  className?: string;
}) {
  const busy = usePending(intent);
  const { outcome } = useIntentAnswer(intent);
  const alert = showOutcome ? <OutcomeAlert outcome={outcome} /> : null;
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value={intent} />
      {outcomeAbove ? alert : null}
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
      {outcomeAbove ? null : alert}
    </Form>
  );
}
