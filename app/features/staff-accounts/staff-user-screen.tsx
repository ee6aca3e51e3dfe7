import { Link, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { touchLinkClass } from "~/components/forms/field-look";
import { IntentForm } from "~/components/forms/intent-form";
import { TextField } from "~/components/forms/text-field";
import { StaffPage } from "~/components/staff/staff-page";
import { StaffSection } from "~/components/staff/staff-section";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { NewPasswordFields } from "./new-password-fields";
import { DISPLAY_NAME_MAX_LENGTH } from "./schemas";
import type { loadStaffUser } from "./staff-management.server";

/** One staff account, for an admin: its details, its display name, a new password and its access. */
export function StaffUserScreen({ user, activeSessions, isSelf }: Awaited<ReturnType<typeof loadStaffUser>>) {
  const result = useActionData<StaffFormResult>();
  const resetErrors = result?.intent === "reset-password" ? (result.fieldErrors ?? {}) : {};
  const nameErrors = result?.intent === "set-display-name" ? (result.fieldErrors ?? {}) : {};
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
      <dl className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-2">
        {[
          ["Display name", user.displayName],
          ["Role", user.role === "admin" ? "Admin" : "Staff"],
          ["Status", user.isActive ? "Active" : "Deactivated"],
          [
            "Two-step verification",
            user.secondFactorUnreadable
              ? "On, but unreadable with this server's DATA_ENCRYPTION_KEY: remove it so they can sign in"
              : user.hasSecondFactor
                ? "On"
                : "Off",
          ],
          ["Last signed in", user.lastSignedIn],
          ["Signed in on", `${activeSessions} device${activeSessions === 1 ? "" : "s"}`],
          ["Calendar address", user.calendarAddressMade ? `Made on ${user.calendarAddressMade}` : "None"],
          ["Account created", user.created],
        ].map(([term, detail]) => (
          <div key={term}>
            <dt className="text-sm font-semibold text-slate-600">{term}</dt>
            <dd className="text-lg text-slate-900">{detail}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-10 grid gap-10 lg:grid-cols-2">
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
                defaultValue={user.displayName}
                key={user.displayName}
                errors={nameErrors.displayName}
              />
            </IntentForm>
          </div>
        </StaffSection>

        <StaffSection headingId="reset-heading" title="Reset the password">
          <p className="mt-1 text-slate-700">This also signs {user.username} out everywhere.</p>
          <div className="mt-4">
            <IntentForm intent="reset-password" label="Reset password" busyLabel="Resetting..." showOutcome={false}>
              <NewPasswordFields label="New password" errors={resetErrors} />
            </IntentForm>
          </div>
        </StaffSection>

        <StaffSection headingId="access-heading" title="Access" className="space-y-4">
          <IntentForm
            intent="sign-out-everywhere"
            label="Sign out everywhere"
            busyLabel="Signing out..."
            showOutcome={false}
          />
          {user.calendarAddressMade ? (
            <IntentForm
              intent="turn-off-calendar-address"
              label="Turn off calendar address"
              busyLabel="Turning off..."
              showOutcome={false}
            />
          ) : null}
          {user.hasSecondFactor ? (
            <IntentForm
              intent="remove-second-factor"
              label="Remove two-step verification"
              busyLabel="Removing..."
              showOutcome={false}
            />
          ) : null}
          {isSelf ? null : (
            <IntentForm
              key={String(user.isActive)}
              intent={user.isActive ? "deactivate" : "reactivate"}
              label={user.isActive ? "Deactivate account" : "Reactivate account"}
              busyLabel={user.isActive ? "Deactivating..." : "Reactivating..."}
              showOutcome={false}
            />
          )}
        </StaffSection>
      </div>
    </StaffPage>
  );
}
