import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { LoginForm } from "~/features/staff-accounts/login-form";
import { redirectIfSignedIn, signIn } from "~/features/staff-accounts/sign-in.server";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => staffPageMeta("Admin Login");

export const loader = ({ request, context }: Route.LoaderArgs) => redirectIfSignedIn(request, context);

export const action = ({ request, context }: Route.ActionArgs) => signIn(request, context);

export default function AdminLogin({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Admin Login"
      intro="Staff sign in here to reach the quick links and the internal forms."
      width="max-w-md"
    >
      <LoginForm notice={loaderData.notice} />
    </StaffPage>
  );
}
