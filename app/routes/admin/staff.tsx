import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { StaffListScreen } from "~/features/staff-accounts/staff-list-screen";
import { loadStaffList, staffListAction } from "~/features/staff-accounts/staff-management.server";
import type { Route } from "./+types/staff";

export const meta: Route.MetaFunction = () => staffPageMeta("Staff accounts");

export function loader({ context }: Route.LoaderArgs) {
  return loadStaffList(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return staffListAction(request, context);
}

export default function StaffAccounts({ loaderData }: Route.ComponentProps) {
  return <StaffListScreen {...loaderData} />;
}
