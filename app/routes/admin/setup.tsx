import { Form, useActionData } from "react-router";
import { Alert, OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { createFirstAdmin, loadFirstAdminSetup } from "~/features/staff-accounts/first-admin-setup.server";
import { DISPLAY_NAME_MAX_LENGTH, SETUP_LINK_INVALID_MESSAGE } from "~/features/staff-accounts/schemas";
import type { StaffFormResult } from "~/forms/staff-form-result";
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
  const busy = usePending();
  if (!loaderData.valid) {
    return (
      <StaffPage title="Create the first admin" width="max-w-md">
        <Alert tone="error" className="mt-6">
          {SETUP_LINK_INVALID_MESSAGE}
        </Alert>
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
        <OutcomeAlert outcome={result} />
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField label="Username" name="username" autoComplete="username" required errors={errors.username} />
        <TextField
          label="Display name"
          name="displayName"
          autoComplete="name"
          maxLength={DISPLAY_NAME_MAX_LENGTH}
          hint="Your full name, as the staff pages show it and the staff forms fill it in. Left empty, the username is used."
          errors={errors.displayName}
        />
        <TextField
          label="Password"
          name="password"
          kind="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A short sentence is easy to remember.`}
          errors={errors.password}
        />
        <TextField
          label="Repeat the password"
          name="confirmPassword"
          kind="password"
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
