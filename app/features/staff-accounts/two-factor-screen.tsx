import { Form, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffPage } from "~/components/staff/staff-page";
import type { loadTwoFactor, TwoFactorActionResult } from "./two-factor-enrolment.server";

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-heading" className="mt-6 rounded-2xl border border-amber-600 bg-amber-50 p-5">
      <h2 id="recovery-heading" className="text-xl font-bold text-slate-900">
        Your recovery codes
      </h2>
      <p className="mt-1 text-slate-800">
        Keep these somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul className="mt-4 grid grid-cols-2 gap-2 font-mono text-lg">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A form that proves who is asking: a code from the authenticator app, the account's password, or both (to turn
 * the second factor off, since a session left open is not proof enough).
 */
function ConfirmForm(props: {
  intent: string;
  label?: string;
  hint?: string;
  askPassword?: boolean;
  buttonLabel: string;
  busyLabel: string;
}) {
  const busy = usePending();
  return (
    <Form method="post" className="mt-6 max-w-sm space-y-4">
      <input type="hidden" name="intent" value={props.intent} />
      {props.askPassword ? (
        <TextField kind="password" label="Your password" name="password" autoComplete="current-password" required />
      ) : null}
      {props.label ? (
        <TextField
          label={props.label}
          name="code"
          hint={props.hint}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
        />
      ) : null}
      <SubmitButton busy={busy} busyLabel={props.busyLabel}>
        {props.buttonLabel}
      </SubmitButton>
    </Form>
  );
}

/** Setting up, or keeping, the signed-in user's second factor and recovery codes. */
export function TwoFactorScreen({ loaderData }: { loaderData: Awaited<ReturnType<typeof loadTwoFactor>> }) {
  const result = useActionData<TwoFactorActionResult>();
  return (
    <StaffPage title="Two-step verification" width="max-w-2xl">
      {loaderData.required && !loaderData.enrolled ? (
        <p className="mt-4 rounded-lg border border-amber-600 bg-amber-50 px-4 py-3 font-medium text-slate-900">
          An admin requires two-step verification for everyone. Set it up to continue.
        </p>
      ) : null}
      <OutcomeAlert outcome={result} className="mt-6" />
      {result?.recoveryCodes ? <RecoveryCodes codes={result.recoveryCodes} /> : null}
      {loaderData.enrolled ? (
        <>
          <p className="mt-6 text-lg text-slate-800">
            Two-step verification is <strong>on</strong> for {loaderData.username}. Signing in asks for a code from your
            authenticator app.
          </p>
          <p className="mt-4 text-slate-800">
            {loaderData.unusedRecoveryCodes === 0
              ? "You have no unused recovery codes. Make new ones, so a lost phone does not lock you out."
              : `You have ${loaderData.unusedRecoveryCodes} unused recovery code${loaderData.unusedRecoveryCodes === 1 ? "" : "s"}.`}
          </p>
          <ConfirmForm
            intent="new-recovery-codes"
            askPassword
            buttonLabel="Make new recovery codes"
            busyLabel="Making codes..."
          />
          {loaderData.required ? null : (
            <ConfirmForm
              intent="turn-off"
              askPassword
              label="Current code"
              hint="To turn it off, enter your password and a code from your app."
              buttonLabel="Turn off two-step verification"
              busyLabel="Turning off..."
            />
          )}
        </>
      ) : (
        <>
          <ol className="mt-6 list-decimal space-y-2 pl-6 text-slate-800">
            <li>
              Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password…).
            </li>
            <li>Scan this QR code, or type the setup key by hand.</li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          <img
            src={loaderData.qrCodeDataUrl}
            alt={`QR code to add ${loaderData.username} to an authenticator app`}
            width={220}
            height={220}
            className="mt-6 rounded-lg border border-slate-200"
          />
          <p className="mt-4 text-slate-800">
            Setup key: <code className="font-mono break-all">{loaderData.secret}</code>
          </p>
          <ConfirmForm
            intent="confirm"
            label="Code from your app"
            buttonLabel="Turn on two-step verification"
            busyLabel="Checking..."
          />
        </>
      )}
    </StaffPage>
  );
}
