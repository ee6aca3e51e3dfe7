import { Form, useActionData, useNavigation } from "react-router";
import { StatusBanner, SubmitButton } from "~/features/staff-accounts/staff-form-controls";
import type { SubmissionActionResult } from "./submission-page.server";

/**
 * One of the detail page's small forms: posts its intent with its fields, says busy while it runs, and shows
 * the answer beside itself (on a phone the top of the page is far away).
 */
export function IntentForm({
  intent,
  label,
  busyLabel,
  children,
  showResult = true,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  children?: React.ReactNode;
  showResult?: boolean;
}) {
  const navigation = useNavigation();
  const result = useActionData<SubmissionActionResult>();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value={intent} />
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
      {showResult ? <StatusBanner result={result?.intent === intent ? result : undefined} /> : null}
    </Form>
  );
}
