import { Link } from "react-router";
import { touchLinkClass } from "~/components/forms/field-look";
import { StaffPage } from "~/components/staff/staff-page";
import { StaffSection } from "~/components/staff/staff-section";
import { StaffTable } from "~/components/staff/staff-table";
import { AddUserSection } from "./add-user-section";
import { SecondFactorRequirementSection } from "./second-factor-requirement-section";
import { SignInLocksSection } from "./sign-in-locks-section";
import type { loadStaffList } from "./staff-management.server";

type StaffList = Awaited<ReturnType<typeof loadStaffList>>;

/** Every staff user, each linked to their own page; the one signed in is marked "(you)". */
function PeopleSection({ users, currentUserId }: Pick<StaffList, "users" | "currentUserId">) {
  return (
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
  );
}

/** The admins' staff list: who can sign in, the sign-in locks now, adding a user and requiring a second factor. */
export function StaffListScreen({ users, signInLocks, secondFactorRequired, currentUserId }: StaffList) {
  return (
    <StaffPage title="Staff accounts" intro="Who can sign in to the staff tools.">
      <PeopleSection users={users} currentUserId={currentUserId} />
      <SignInLocksSection signInLocks={signInLocks} />
      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        <AddUserSection />
        <SecondFactorRequirementSection secondFactorRequired={secondFactorRequired} />
      </div>
    </StaffPage>
  );
}
