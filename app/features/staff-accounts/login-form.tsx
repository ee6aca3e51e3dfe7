import { useEffect, useRef } from "react";
import { Form, useActionData, useSearchParams } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import type { StaffFormResult } from "~/forms/staff-form-result";

/** A step of signing in: the server's answer above the fields, and the page asked for carried along. */
function SignInStepForm({
  children,
  buttonLabel,
  busyLabel,
}: {
  children: React.ReactNode;
  buttonLabel: string;
  busyLabel: string;
}) {
  const result = useActionData<StaffFormResult>();
  const busy = usePending();
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  // A refused attempt empties the secret fields, so the next try starts from a blank password or code.
  useEffect(() => {
    if (result?.status !== "error") return;
    for (const secret of formRef.current?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? []) {
      secret.value = "";
    }
  }, [result]);
  return (
    <Form method="post" className="mt-8 space-y-5" ref={formRef}>
      <OutcomeAlert outcome={result} />
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {buttonLabel}
      </SubmitButton>
    </Form>
  );
}

/** The staff sign-in form. It posts to the server, which alone decides; nothing about accounts is in the page. */
export function LoginForm() {
  return (
    <SignInStepForm buttonLabel="Login" busyLabel="Logging in...">
      <TextField label="Username" name="username" autoComplete="username" required autoCapitalize="none" />
      <TextField label="Password" name="password" kind="password" autoComplete="current-password" required />
    </SignInStepForm>
  );
}

/** The second step for users with an authenticator app: a current code or one of their recovery codes. */
export function SecondFactorForm() {
  return (
    <SignInStepForm buttonLabel="Verify" busyLabel="Checking...">
      <TextField
        label="Authentication code"
        name="code"
        hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        autoComplete="one-time-code"
        required
        autoCapitalize="none"
        spellCheck={false}
      />
    </SignInStepForm>
  );
}
