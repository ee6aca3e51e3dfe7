import { IntentForm } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";
import type { loadStaffUser } from "./staff-management.server";

type StaffUser = Awaited<ReturnType<typeof loadStaffUser>>;

/**
 * What an admin can take away from an account: its sessions, its calendar address, its second factor, and the
 * account itself (never their own).
 */
export function AccountAccessSection({ user, isSelf }: Pick<StaffUser, "user" | "isSelf">) {
  return (
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
  );
}
