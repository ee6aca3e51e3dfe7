import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { createFirstAdmin, loadFirstAdminSetup } from "~/features/staff-accounts/first-admin-setup.server";
import { FirstAdminSetupScreen } from "~/features/staff-accounts/first-admin-setup-screen";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = () => staffPageMeta("Create the first admin");

export function loader({ request, context }: Route.LoaderArgs) {
  return loadFirstAdminSetup(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return createFirstAdmin(request, context);
}

export default function FirstAdminSetup({ loaderData }: Route.ComponentProps) {
  return <FirstAdminSetupScreen {...loaderData} />;
}
