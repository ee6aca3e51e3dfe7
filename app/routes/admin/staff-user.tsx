import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadStaffUser, staffUserAction } from "~/features/staff-accounts/staff-management.server";
import { StaffUserScreen } from "~/features/staff-accounts/staff-user-screen";
import type { Route } from "./+types/staff-user";

export const meta: Route.MetaFunction = ({ data }) =>
  staffPageMeta(data ? `Staff account ${data.user.username}` : "Staff account");

export function loader({ context, params }: Route.LoaderArgs) {
  return loadStaffUser(context, params.userId);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return staffUserAction(request, context, params.userId);
}

export default function StaffUser({ loaderData }: Route.ComponentProps) {
  return <StaffUserScreen {...loaderData} />;
}
