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
  notice,
}: {
  children: React.ReactNode;
  buttonLabel: string;
  busyLabel: string;
  /** Why the person is here again (their half-way sign-in was ended), until they answer. */
  notice?: string | null;
}) {
  const answer = useActionData<StaffFormResult>();
  const result = answer ?? (notice ? ({ status: "error", message: notice } satisfies StaffFormResult) : undefined);
  const busy = usePending();
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  // A refused attempt empties the secret fields, so the next try starts from a blank password or code.
  useEffect(() => {
    if (answer?.status !== "error") return;
    for (const secret of formRef.current?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? []) {
      secret.value = "";
    }
  }, [answer]);
  return (
    <Form method="post" className="mt-8 space-y-5" ref={formRef}>
      <OutcomeAlert outcome={result} revealOn={answer ?? notice ?? undefined} />
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      {children}
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {buttonLabel}
      </SubmitButton>
    </Form>
  );
}

/** The staff sign-in form. It posts to the server, which alone decides; nothing about accounts is in the page. */
export function LoginForm({ notice }: { notice: string | null }) {
  return (
    <SignInStepForm buttonLabel="Login" busyLabel="Logging in..." notice={notice}>
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
