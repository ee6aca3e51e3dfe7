import { Link, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { touchLinkClass } from "~/components/forms/field-look";
import { IntentForm, useIntentAnswer } from "~/components/forms/intent-form";
import { TextField } from "~/components/forms/text-field";
import { StaffPage } from "~/components/staff/staff-page";
import { StaffSection } from "~/components/staff/staff-section";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { AccountAccessSection } from "./account-access-section";
import { AccountDetails } from "./account-details";
import { NewPasswordFields } from "./new-password-fields";
import { DISPLAY_NAME_MAX_LENGTH } from "./schemas";
import type { loadStaffUser } from "./staff-management.server";

function DisplayNameSection({ displayName }: { displayName: string }) {
  const { fieldErrors } = useIntentAnswer("set-display-name");
  return (
    <StaffSection headingId="display-name-heading" title="Display name">
      <p className="mt-1 text-slate-700">
        Shown on the staff pages and filled in as Submitted By and Your Name on the staff forms.
      </p>
      <div className="mt-4">
        <IntentForm intent="set-display-name" label="Save display name" busyLabel="Saving..." showOutcome={false}>
          <TextField
            label="Display name"
            name="displayName"
            autoComplete="off"
            required
            maxLength={DISPLAY_NAME_MAX_LENGTH}
            defaultValue={displayName}
            key={displayName}
            errors={fieldErrors.displayName}
          />
        </IntentForm>
      </div>
    </StaffSection>
  );
}

function ResetPasswordSection({ username }: { username: string }) {
  const { fieldErrors } = useIntentAnswer("reset-password");
  return (
    <StaffSection headingId="reset-heading" title="Reset the password">
      <p className="mt-1 text-slate-700">This also signs {username} out everywhere.</p>
      <div className="mt-4">
        <IntentForm intent="reset-password" label="Reset password" busyLabel="Resetting..." showOutcome={false}>
          <NewPasswordFields label="New password" errors={fieldErrors} />
        </IntentForm>
      </div>
    </StaffSection>
  );
}

/** One staff account, for an admin: its details, its display name, a new password and its access. */
export function StaffUserScreen({ user, activeSessions, isSelf }: Awaited<ReturnType<typeof loadStaffUser>>) {
  // Every form here answers in one place, at the top.
  const result = useActionData<StaffFormResult>();
  return (
    <StaffPage
      title={`Staff account ${user.username}`}
      intro={
        <Link to="/admin/staff" className={touchLinkClass}>
          Back to all staff accounts
        </Link>
      }
    >
      <OutcomeAlert outcome={result} className="mt-6" />
      <AccountDetails user={user} activeSessions={activeSessions} />
      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        <DisplayNameSection displayName={user.displayName} />
        <ResetPasswordSection username={user.username} />
        <AccountAccessSection user={user} isSelf={isSelf} />
      </div>
    </StaffPage>
  );
}
