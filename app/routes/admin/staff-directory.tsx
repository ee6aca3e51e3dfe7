import { Link } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadStaffDirectory, staffDirectoryAction } from "~/features/team-communication/staff-directory-actions.server";
import { StaffDirectoryScreen } from "~/features/team-communication/staff-directory-screen";
import type { Route } from "./+types/staff-directory";

export const meta: Route.MetaFunction = () => staffPageMeta("Staff directory");

export const loader = ({ context }: Route.LoaderArgs) => loadStaffDirectory(context);

export const action = ({ request, context }: Route.ActionArgs) => staffDirectoryAction(request, context);

export default function StaffDirectory({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Staff directory"
      intro={
        <p>
          The people{" "}
          <Link to="/admin/quick-links/team-communication" className="text-brand-800 underline">
            Team Communication
          </Link>{" "}
          writes to: an email goes to each address, a text to each mobile number. A deactivated person is no longer
          offered.
        </p>
      }
    >
      <StaffDirectoryScreen entries={loaderData.entries} usesServiceTitan={loaderData.usesServiceTitan} />
    </StaffPage>
  );
}
