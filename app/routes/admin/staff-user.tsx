import { Form, Link, useActionData, useNavigation } from "react-router";
import { formatStaffTime } from "~/components/staff/format-time";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import type { StaffFormResult } from "~/features/staff-accounts/form-result";
import { LabelledInput, StatusBanner, SubmitButton } from "~/features/staff-accounts/staff-form-controls";
import { loadStaffUser, staffUserAction } from "~/features/staff-accounts/staff-management.server";
import { PASSWORD_MIN_LENGTH } from "~/server/auth/password-rules";
import type { Route } from "./+types/staff-user";

export const meta: Route.MetaFunction = ({ data }) =>
  staffPageMeta(data ? `Staff account ${data.user.username}` : "Staff account");

export function loader({ request, context, params }: Route.LoaderArgs) {
  return loadStaffUser(request, context, params.userId);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return staffUserAction(request, context, params.userId);
}

function IntentButton({ intent, label, busyLabel }: { intent: string; label: string; busyLabel: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
    </Form>
  );
}

export default function StaffUser({ loaderData }: Route.ComponentProps) {
  const { user, activeSessions, isSelf } = loaderData;
  const result = useActionData<StaffFormResult>();
  const navigation = useNavigation();
  const resetErrors = result?.intent === "reset-password" ? (result.fieldErrors ?? {}) : {};
  return (
    <StaffPage
      title={`Staff account ${user.username}`}
      intro={
        <Link to="/admin/staff" className="text-brand-800 underline">
          Back to all staff accounts
        </Link>
      }
    >
      <div className="mt-6">
        <StatusBanner result={result} />
      </div>
      <dl className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-2">
        {[
          ["Role", user.role === "admin" ? "Admin" : "Staff"],
          ["Status", user.isActive ? "Active" : "Deactivated"],
          ["Two-step verification", user.hasSecondFactor ? "On" : "Off"],
          ["Last signed in", formatStaffTime(user.lastSignedInAt)],
          ["Signed in on", `${activeSessions} device${activeSessions === 1 ? "" : "s"}`],
          ["Account created", formatStaffTime(user.createdAt)],
        ].map(([term, detail]) => (
          <div key={term}>
            <dt className="text-sm font-semibold text-slate-600">{term}</dt>
            <dd className="text-lg text-slate-900">{detail}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="reset-heading">
          <h2 id="reset-heading" className="text-xl font-bold text-brand-900">
            Reset the password
          </h2>
          <p className="mt-1 text-slate-700">This also signs {user.username} out everywhere.</p>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="reset-password" />
            <LabelledInput
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              errors={resetErrors.password}
            />
            <LabelledInput
              label="Repeat the new password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              required
              errors={resetErrors.confirmPassword}
            />
            <SubmitButton
              busy={navigation.state !== "idle" && navigation.formData?.get("intent") === "reset-password"}
              busyLabel="Resetting..."
            >
              Reset password
            </SubmitButton>
          </Form>
        </section>

        <section aria-labelledby="access-heading" className="space-y-4">
          <h2 id="access-heading" className="text-xl font-bold text-brand-900">
            Access
          </h2>
          <IntentButton intent="sign-out-everywhere" label="Sign out everywhere" busyLabel="Signing out..." />
          {user.hasSecondFactor ? (
            <IntentButton intent="remove-second-factor" label="Remove two-step verification" busyLabel="Removing..." />
          ) : null}
          {isSelf ? null : user.isActive ? (
            <IntentButton intent="deactivate" label="Deactivate account" busyLabel="Deactivating..." />
          ) : (
            <IntentButton intent="reactivate" label="Reactivate account" busyLabel="Reactivating..." />
          )}
        </section>
      </div>
    </StaffPage>
  );
}
