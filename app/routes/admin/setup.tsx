import { Form, useActionData, useNavigation } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { createFirstAdmin, loadFirstAdminSetup } from "~/features/staff-accounts/first-admin-setup.server";
import type { StaffFormResult } from "~/features/staff-accounts/form-result";
import { SETUP_LINK_INVALID_MESSAGE } from "~/features/staff-accounts/schemas";
import { LabelledInput, StatusBanner, SubmitButton } from "~/features/staff-accounts/staff-form-controls";
import { PASSWORD_MIN_LENGTH } from "~/server/auth/password-rules";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = () => staffPageMeta("Create the first admin");

export function loader({ request, context }: Route.LoaderArgs) {
  return loadFirstAdminSetup(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return createFirstAdmin(request, context);
}

export default function FirstAdminSetup({ loaderData }: Route.ComponentProps) {
  const result = useActionData<StaffFormResult>();
  const busy = useNavigation().state !== "idle";
  if (!loaderData.valid) {
    return (
      <StaffPage title="Create the first admin" width="max-w-md">
        <p className="mt-6 rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-red-900">
          {SETUP_LINK_INVALID_MESSAGE}
        </p>
      </StaffPage>
    );
  }
  const errors = result?.fieldErrors ?? {};
  return (
    <StaffPage
      title="Create the first admin"
      intro="This link works once. The account you create here can add the rest of the staff."
      width="max-w-md"
    >
      <Form method="post" className="mt-8 space-y-5">
        <StatusBanner result={result} />
        <input type="hidden" name="token" value={loaderData.token} />
        <LabelledInput label="Username" name="username" autoComplete="username" required errors={errors.username} />
        <LabelledInput
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A short sentence is easy to remember.`}
          errors={errors.password}
        />
        <LabelledInput
          label="Repeat the password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          errors={errors.confirmPassword}
        />
        <SubmitButton busy={busy} busyLabel="Creating...">
          Create admin account
        </SubmitButton>
      </Form>
    </StaffPage>
  );
}
