import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadTwoFactor, twoFactorAction } from "~/features/staff-accounts/two-factor-enrolment.server";
import { TwoFactorScreen } from "~/features/staff-accounts/two-factor-screen";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => staffPageMeta("Two-step verification");

export function loader({ context }: Route.LoaderArgs) {
  return loadTwoFactor(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return twoFactorAction(request, context);
}

export default function TwoFactor({ loaderData }: Route.ComponentProps) {
  return <TwoFactorScreen loaderData={loaderData} />;
}
