import { Link } from "react-router";
import { touchLinkClass } from "~/components/forms/field-look";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { MessageHistory } from "~/features/team-communication/message-history";
import { loadMessageHistory } from "~/features/team-communication/message-history.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/team-communication-history";

export const meta: Route.MetaFunction = () => staffPageMeta("Message history");

export const loader = async ({ context }: Route.LoaderArgs) => ({
  messages: await loadMessageHistory(context.db, signedInStaff(context).role),
});

export default function TeamCommunicationHistory({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Message history"
      intro={
        <Link to="/admin/quick-links/team-communication" className={touchLinkClass}>
          Back to Team Communication
        </Link>
      }
    >
      <MessageHistory messages={loaderData.messages} />
    </StaffPage>
  );
}
