import type { loadStaffUser } from "./staff-management.server";

type StaffUser = Awaited<ReturnType<typeof loadStaffUser>>;

function secondFactorState(user: StaffUser["user"]) {
  if (user.secondFactorUnreadable)
    return "On, but unreadable with this server's DATA_ENCRYPTION_KEY: remove it so they can sign in";
  return user.hasSecondFactor ? "On" : "Off";
}

/** What an admin reads of one staff account at a glance: its name, role, state, devices and dates. */
export function AccountDetails({ user, activeSessions }: Pick<StaffUser, "user" | "activeSessions">) {
  return (
    <dl className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-2">
      {[
        ["Display name", user.displayName],
        ["Role", user.role === "admin" ? "Admin" : "Staff"],
        ["Status", user.isActive ? "Active" : "Deactivated"],
        ["Two-step verification", secondFactorState(user)],
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
  );
}
