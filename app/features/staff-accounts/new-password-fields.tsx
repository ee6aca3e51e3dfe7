import { TextField } from "~/components/forms/text-field";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { PASSWORD_MIN_LENGTH } from "~/services/auth/password-rules";

/**
 * A new password typed twice, with the rule it must meet: on the first admin's setup, on adding a user and on
 * resetting one's password. `advice` follows the rule in the hint.
 */
export function NewPasswordFields({
  label = "Password",
  advice,
  errors = {},
}: {
  label?: "Password" | "New password";
  advice?: string;
  errors?: NonNullable<StaffFormResult["fieldErrors"]>;
}) {
  return (
    <>
      <TextField
        label={label}
        name="password"
        kind="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.${advice ? ` ${advice}` : ""}`}
        errors={errors.password}
      />
      <TextField
        label={`Repeat the ${label.toLowerCase()}`}
        name="confirmPassword"
        kind="password"
        autoComplete="new-password"
        required
        errors={errors.confirmPassword}
      />
    </>
  );
}
