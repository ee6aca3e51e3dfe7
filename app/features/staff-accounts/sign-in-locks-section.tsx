import { Form } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { useIntentAnswer } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";
import { StaffTable } from "~/components/staff/staff-table";
import type { loadStaffList } from "./staff-management.server";

type SignInLock = Awaited<ReturnType<typeof loadStaffList>>["signInLocks"][number];

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

/** The sign-in locks in force now, what makes one, and a way to lift each before it ends by itself. */
export function SignInLocksSection({ signInLocks }: { signInLocks: SignInLock[] }) {
  const { outcome } = useIntentAnswer("unlock-sign-in");
  return (
    <StaffSection headingId="locks-heading" title="Sign-in locks" className="mt-10">
      <p className="mt-1 text-slate-700">
        Five wrong answers lock an account from the address they came from; thirty lock the address; five wrong codes
        from an authenticator app lock that account&apos;s codes from every address. Each lock ends by itself after 15
        minutes.
      </p>
      <OutcomeAlert outcome={outcome} />
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
  );
}
