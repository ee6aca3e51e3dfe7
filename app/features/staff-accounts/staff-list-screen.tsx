import { Form, Link, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { ChoiceField } from "~/components/forms/choice-field";
import { touchLinkClass } from "~/components/forms/field-look";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffPage } from "~/components/staff/staff-page";
import { StaffSection } from "~/components/staff/staff-section";
import { StaffTable } from "~/components/staff/staff-table";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { NewPasswordFields } from "./new-password-fields";
import { DISPLAY_NAME_MAX_LENGTH } from "./schemas";
import type { loadStaffList } from "./staff-management.server";

type StaffList = Awaited<ReturnType<typeof loadStaffList>>;
type SignInLock = StaffList["signInLocks"][number];

const ROLE_OPTIONS = [
  { value: "staff", label: "Staff" },
  { value: "admin", label: "Admin" },
];

function UnlockButton({ lock }: { lock: SignInLock }) {
  return (
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
  );
}

/** The admins' staff list: who can sign in, the sign-in locks now, adding a user and requiring a second factor. */
export function StaffListScreen({ users, signInLocks, secondFactorRequired, currentUserId }: StaffList) {
  const result = useActionData<StaffFormResult>();
  const addingUser = usePending("add-user");
  const savingSecondFactor = usePending("require-second-factor");
  const addErrors = result?.intent === "add-user" ? (result.fieldErrors ?? {}) : {};
  return (
    <StaffPage title="Staff accounts" intro="Who can sign in to the staff tools.">
      <StaffSection headingId="people-heading" title="People" className="mt-8">
        <StaffTable
          rows={users}
          rowKey={(user) => user.id}
          columns={[
            {
              header: "Username",
              namesRow: true,
              className: "font-semibold",
              cell: (user) => (
                <>
                  <Link to={`/admin/staff/${user.id}`} className={touchLinkClass}>
                    {user.username}
                  </Link>
                  {user.id === currentUserId ? " (you)" : null}
                </>
              ),
            },
            { header: "Display name", cell: (user) => user.displayName },
            { header: "Role", cell: (user) => (user.role === "admin" ? "Admin" : "Staff") },
            { header: "Status", cell: (user) => (user.isActive ? "Active" : "Deactivated") },
            { header: "Two-step", cell: (user) => (user.hasSecondFactor ? "On" : "Off") },
            { header: "Last signed in", cell: (user) => user.lastSignedIn },
          ]}
        />
      </StaffSection>

      <StaffSection headingId="locks-heading" title="Sign-in locks" className="mt-10">
        <p className="mt-1 text-slate-700">
          Five wrong answers lock an account from the address they came from; thirty lock the address; five wrong codes
          from an authenticator app lock that account&apos;s codes from every address. Each lock ends by itself after 15
          minutes.
        </p>
        <OutcomeAlert outcome={result?.intent === "unlock-sign-in" ? result : undefined} />
        {signInLocks.length === 0 ? (
          <p className="mt-4 text-slate-700">No sign-in is locked now.</p>
        ) : (
          <StaffTable
            rows={signInLocks}
            rowKey={(lock) => lock.key}
            columns={[
              {
                header: "Account",
                namesRow: true,
                className: "font-semibold",
                cell: (lock) => lock.username ?? "Every account",
              },
              { header: "From address", cell: (lock) => lock.address ?? "Any address" },
              { header: "Locked until", cell: (lock) => lock.lockedUntil },
              { header: "Unlock", headerHidden: true, cell: (lock) => <UnlockButton lock={lock} /> },
            ]}
          />
        )}
      </StaffSection>

      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        <StaffSection headingId="add-heading" title="Add a user">
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
            <NewPasswordFields advice="Give it to the person in person or by phone." errors={addErrors} />
            <SubmitButton busy={addingUser} busyLabel="Adding...">
              Add user
            </SubmitButton>
          </Form>
        </StaffSection>

        <StaffSection headingId="second-factor-heading" title="Two-step verification">
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="require-second-factor" />
            <OutcomeAlert outcome={result?.intent === "require-second-factor" ? result : undefined} />
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                name="required"
                defaultChecked={secondFactorRequired}
                key={String(secondFactorRequired)}
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
        </StaffSection>
      </div>
    </StaffPage>
  );
}
