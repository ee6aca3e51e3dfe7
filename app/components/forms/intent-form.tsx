import type { ReactNode } from "react";
import { Form, useActionData } from "react-router";
import { type Outcome, OutcomeAlert } from "./alert";
import { SubmitButton } from "./submit-button";
import { usePending } from "./use-pending";

/**
 * One of a page's small forms, each one action: posts its intent with its fields, says busy while it runs,
 * and shows the answer beside itself (on a phone the top of the page is far away).
 */
export function IntentForm({
  intent,
  label,
  busyLabel,
  children,
  showOutcome = true,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  children?: ReactNode;
  /** Off where the page shows the answers of many such forms in one place. */
  showOutcome?: boolean;
}) {
  const busy = usePending(intent);
  const outcome = useActionData<Outcome & { intent?: string }>();
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value={intent} />
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
      {showOutcome ? <OutcomeAlert outcome={outcome?.intent === intent ? outcome : undefined} /> : null}
    </Form>
  );
}
