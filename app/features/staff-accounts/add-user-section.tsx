import { ChoiceField } from "~/components/forms/choice-field";
import { IntentForm, useIntentAnswer } from "~/components/forms/intent-form";
import { TextField } from "~/components/forms/text-field";
import { StaffSection } from "~/components/staff/staff-section";
import { NewPasswordFields } from "./new-password-fields";
import { DISPLAY_NAME_MAX_LENGTH } from "./schemas";

const ROLE_OPTIONS = [
  { value: "staff", label: "Staff" },
  { value: "admin", label: "Admin" },
];

/** An admin adds a staff user: a username, a display name, a role and a first password to hand over. */
export function AddUserSection() {
  const { fieldErrors } = useIntentAnswer("add-user");
  return (
    <StaffSection headingId="add-heading" title="Add a user">
      <IntentForm intent="add-user" label="Add user" busyLabel="Adding..." outcomeAbove className="mt-4 space-y-4">
        <TextField label="Username" name="username" required autoComplete="off" errors={fieldErrors.username} />
        <TextField
          label="Display name"
          name="displayName"
          autoComplete="off"
          maxLength={DISPLAY_NAME_MAX_LENGTH}
          hint="The person's full name, as the staff pages show it. Left empty, the username is used."
          errors={fieldErrors.displayName}
        />
        <ChoiceField label="Role" name="role" defaultValue="staff" options={ROLE_OPTIONS} errors={fieldErrors.role} />
        <NewPasswordFields advice="Give it to the person in person or by phone." errors={fieldErrors} />
      </IntentForm>
    </StaffSection>
  );
}
