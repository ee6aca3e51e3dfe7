import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { SecondFactorForm } from "~/features/staff-accounts/login-form";
import { requirePendingSession, verifySecondFactor } from "~/features/staff-accounts/verify-second-factor.server";
import type { Route } from "./+types/verify";

export const meta: Route.MetaFunction = () => staffPageMeta("Two-step verification");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePendingSession(request, context);
  return null;
}

export const action = ({ request, context }: Route.ActionArgs) => verifySecondFactor(request, context);

export default function VerifySecondFactor() {
  return (
    <StaffPage title="Two-step verification" intro="Your password was accepted. One more step." width="max-w-md">
      <SecondFactorForm />
    </StaffPage>
  );
}
