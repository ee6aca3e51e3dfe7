import { Form, Link, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { ChoiceField } from "~/components/forms/choice-field";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { formatStaffTime } from "~/components/staff/format-time";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { DISPLAY_NAME_MAX_LENGTH } from "~/features/staff-accounts/schemas";
import { loadStaffList, staffListAction } from "~/features/staff-accounts/staff-management.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { PASSWORD_MIN_LENGTH } from "~/server/auth/password-rules";
import type { Route } from "./+types/staff";

export const meta: Route.MetaFunction = () => staffPageMeta("Staff accounts");

export function loader({ request, context }: Route.LoaderArgs) {
  return loadStaffList(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return staffListAction(request, context);
}

const ROLE_OPTIONS = [
  { value: "staff", label: "Staff" },
  { value: "admin", label: "Admin" },
];

export default function StaffAccounts({ loaderData }: Route.ComponentProps) {
  const result = useActionData<StaffFormResult>();
  const addingUser = usePending("add-user");
  const savingSecondFactor = usePending("require-second-factor");
  const addErrors = result?.intent === "add-user" ? (result.fieldErrors ?? {}) : {};
  return (
    <StaffPage title="Staff accounts" intro="Who can sign in to the staff tools.">
      <section aria-labelledby="people-heading" className="mt-8">
        <h2 id="people-heading" className="text-xl font-bold text-brand-900">
          People
        </h2>
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[44rem] border-collapse text-left">
            <thead>
              <tr className="border-b border-slate-300 text-sm text-slate-700">
                <th scope="col" className="py-2 pr-4">
                  Username
                </th>
                <th scope="col" className="py-2 pr-4">
                  Display name
                </th>
                <th scope="col" className="py-2 pr-4">
                  Role
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4">
                  Two-step
                </th>
                <th scope="col" className="py-2 pr-4">
                  Last signed in
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.users.map((user) => (
                <tr key={user.id} className="border-b border-slate-200">
                  <th scope="row" className="py-2 pr-4 font-semibold">
                    <Link to={`/admin/staff/${user.id}`} className="text-brand-800 underline">
                      {user.username}
                    </Link>
                    {user.id === loaderData.currentUserId ? " (you)" : null}
                  </th>
                  <td className="py-2 pr-4">{user.displayName}</td>
                  <td className="py-2 pr-4">{user.role === "admin" ? "Admin" : "Staff"}</td>
                  <td className="py-2 pr-4">{user.isActive ? "Active" : "Deactivated"}</td>
                  <td className="py-2 pr-4">{user.hasSecondFactor ? "On" : "Off"}</td>
                  <td className="py-2 pr-4">{formatStaffTime(user.lastSignedInAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="locks-heading" className="mt-10">
        <h2 id="locks-heading" className="text-xl font-bold text-brand-900">
          Sign-in locks
        </h2>
        <p className="mt-1 text-slate-700">
          Five wrong answers lock an account from the address they came from; thirty lock the address. Each lock ends by
          itself after 15 minutes.
        </p>
        <OutcomeAlert outcome={result?.intent === "unlock-sign-in" ? result : undefined} />
        {loaderData.signInLocks.length === 0 ? (
          <p className="mt-4 text-slate-700">No sign-in is locked now.</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full min-w-[36rem] border-collapse text-left">
              <thead>
                <tr className="border-b border-slate-300 text-sm text-slate-700">
                  <th scope="col" className="py-2 pr-4">
                    Account
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    From address
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Locked until
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    <span className="sr-only">Unlock</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.signInLocks.map((lock) => (
                  <tr key={lock.key} className="border-b border-slate-200">
                    <th scope="row" className="py-2 pr-4 font-semibold">
                      {lock.username ?? "Every account"}
                    </th>
                    <td className="py-2 pr-4">{lock.address ?? "Any address"}</td>
                    <td className="py-2 pr-4">{formatStaffTime(lock.lockedUntil)}</td>
                    <td className="py-2 pr-4">
                      <Form method="post">
                        <input type="hidden" name="intent" value="unlock-sign-in" />
                        <input type="hidden" name="key" value={lock.key} />
                        <button
                          type="submit"
                          className="button-secondary"
                          aria-label={`Unlock ${lock.username ?? "every account"} from ${lock.address ?? "any address"}`}
                        >
                          Unlock
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="add-heading">
          <h2 id="add-heading" className="text-xl font-bold text-brand-900">
            Add a user
          </h2>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="add-user" />
            <OutcomeAlert outcome={result?.intent === "add-user" ? result : undefined} />
            <TextField label="Username" name="username" required autoComplete="off" errors={addErrors.username} />
            <TextField
              label="Display name"
              name="displayName"
              autoComplete="off"
              maxLength={DISPLAY_NAME_MAX_LENGTH}
              hint="The person's full name, as the staff pages show it. Left empty, the username is used."
              errors={addErrors.displayName}
            />
            <ChoiceField label="Role" name="role" defaultValue="staff" options={ROLE_OPTIONS} errors={addErrors.role} />
            <TextField
              label="Password"
              name="password"
              kind="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              hint={`At least ${PASSWORD_MIN_LENGTH} characters. Give it to the person in person or by phone.`}
              errors={addErrors.password}
            />
            <TextField
              label="Repeat the password"
              name="confirmPassword"
              kind="password"
              autoComplete="new-password"
              required
              errors={addErrors.confirmPassword}
            />
            <SubmitButton busy={addingUser} busyLabel="Adding...">
              Add user
            </SubmitButton>
          </Form>
        </section>

        <section aria-labelledby="second-factor-heading">
          <h2 id="second-factor-heading" className="text-xl font-bold text-brand-900">
            Two-step verification
          </h2>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="require-second-factor" />
            <OutcomeAlert outcome={result?.intent === "require-second-factor" ? result : undefined} />
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                name="required"
                defaultChecked={loaderData.secondFactorRequired}
                key={String(loaderData.secondFactorRequired)}
                className="mt-1 size-5 accent-brand-700"
              />
              <span>
                Require a second factor for everyone. Users without one are asked to set it up before anything else.
              </span>
            </label>
            <SubmitButton busy={savingSecondFactor} busyLabel="Saving...">
              Save setting
            </SubmitButton>
          </Form>
        </section>
      </div>
    </StaffPage>
  );
}
