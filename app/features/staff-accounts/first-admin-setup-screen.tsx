import { Form, useActionData } from "react-router";
import { Alert, OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffPage } from "~/components/staff/staff-page";
import type { StaffFormResult } from "~/forms/staff-form-result";
import type { loadFirstAdminSetup } from "./first-admin-setup.server";
import { NewPasswordFields } from "./new-password-fields";
import { DISPLAY_NAME_MAX_LENGTH, SETUP_LINK_INVALID_MESSAGE } from "./schemas";

/** The first admin's account, made from the setup link; a used or unknown link says so and shows no form. */
export function FirstAdminSetupScreen({ token, valid }: Awaited<ReturnType<typeof loadFirstAdminSetup>>) {
  const result = useActionData<StaffFormResult>();
  const busy = usePending();
  if (!valid) {
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
        <input type="hidden" name="token" value={token} />
        <TextField label="Username" name="username" autoComplete="username" required errors={errors.username} />
        <TextField
          label="Display name"
          name="displayName"
          autoComplete="name"
          maxLength={DISPLAY_NAME_MAX_LENGTH}
          hint="Your full name, as the staff pages show it and the staff forms fill it in. Left empty, the username is used."
          errors={errors.displayName}
        />
        <NewPasswordFields advice="A short sentence is easy to remember." errors={errors} />
        <SubmitButton busy={busy} busyLabel="Creating...">
          Create admin account
        </SubmitButton>
      </Form>
    </StaffPage>
  );
}
