import { Link } from "react-router";
import { touchLinkClass } from "~/components/forms/field-look";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { teamMessageForm } from "~/features/team-communication/definition";
import { loadTechnicianOptions } from "~/features/team-communication/load-technicians.server";
import { submitTeamMessage } from "~/features/team-communication/submit-team-message.server";
import { TeamMessageForm } from "~/features/team-communication/team-message-form";
import { usesServiceTitan } from "~/features/team-communication/technician-source.server";
import { formRoute } from "~/forms/form-route";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/team-communication";

export const meta: Route.MetaFunction = () => staffPageMeta("Team Communication");

export async function loader({ context }: Route.LoaderArgs) {
  const user = signedInStaff(context);
  return {
    canEditDirectory: user.role === "admin" && !usesServiceTitan(context.config),
    ...(await loadTechnicianOptions(context)),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => submitTeamMessage(request, context);

export const { clientAction, shouldRevalidate } = formRoute(teamMessageForm);

export default function TeamCommunication({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Team Communication"
      width="max-w-3xl"
      intro={
        <>
          <p>
            Sends an email and a text message to the staff you choose: an email to each who has an address, a text to
            each who has a mobile number.
          </p>
          <p className="mt-2 flex flex-wrap gap-x-4">
            <Link to="/admin/quick-links/team-communication/history" className={touchLinkClass}>
              Message history
            </Link>
            {loaderData.canEditDirectory ? (
              <Link to="/admin/staff-directory" className={touchLinkClass}>
                Staff directory
              </Link>
            ) : null}
          </p>
        </>
      }
    >
      <TeamMessageForm technicians={loaderData.technicians} loadFailed={loaderData.failed} />
    </StaffPage>
  );
}
