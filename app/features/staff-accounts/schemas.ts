import * as z from "zod/mini";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/services/auth/password-rules";

export const INVALID_CREDENTIALS_MESSAGE = "Invalid username or password";
export const MISSING_CREDENTIALS_MESSAGE = "Please enter your username and password";
export const INVALID_CODE_MESSAGE = "That code is not valid. Enter the 6-digit code from your app, or a recovery code.";
export const CODES_USED_UP_MESSAGE =
  "Three wrong codes were entered, so that sign-in was ended. For your safety, enter your password again.";
/** The code step locked for the account, whatever the address: how long, and the way in that still works. */
export const codesLockedMessage = (minutes: number) =>
  `Too many wrong codes have been entered for this account. Codes from your app are not accepted for ${minutes} minute${minutes === 1 ? "" : "s"}: try again then, or enter one of your recovery codes.`;
export const SECOND_FACTOR_UNREADABLE_MESSAGE =
  "Your two-step verification cannot be checked on this server: an admin must reset it (Staff, your name, Remove two-step verification). Then sign in with your password and set it up again. A recovery code still signs you in.";
export const SETUP_LINK_INVALID_MESSAGE =
  "This setup link is not valid any more: it was used, it expired, or an account exists already. Restart the app for a new link, or ask an admin for an account.";
export const PASSWORDS_DIFFER_MESSAGE = "The two passwords do not match";

const required = (message: string) => z.string({ error: message }).check(z.minLength(1, message));

export const loginSchema = z.object({
  username: required(MISSING_CREDENTIALS_MESSAGE).check(z.maxLength(100, INVALID_CREDENTIALS_MESSAGE)),
  password: required(MISSING_CREDENTIALS_MESSAGE).check(z.maxLength(PASSWORD_MAX_LENGTH, INVALID_CREDENTIALS_MESSAGE)),
  redirectTo: z.optional(z.string()),
});

export const secondFactorSchema = z.object({
  code: required("Enter the code from your authenticator app").check(z.maxLength(40, INVALID_CODE_MESSAGE)),
  redirectTo: z.optional(z.string()),
});

export const usernameField = z
  .string({ error: "Enter a username" })
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(3, "A username has at least 3 characters"),
    z.maxLength(40, "A username has at most 40 characters"),
    z.regex(/^[a-z0-9._@-]+$/, "A username may use letters, digits and . _ @ - only"),
  );

export const DISPLAY_NAME_MAX_LENGTH = 100;

/** The person's name as the staff pages show it; an account created without one shows its username. */
export const displayNameField = z
  .string({ error: "Enter a display name" })
  .check(
    z.trim(),
    z.minLength(1, "Enter a display name"),
    z.maxLength(DISPLAY_NAME_MAX_LENGTH, `A display name has at most ${DISPLAY_NAME_MAX_LENGTH} characters`),
  );

/** Left empty on a form that creates an account, the username stands in. */
const optionalDisplayNameField = z.optional(
  z
    .string()
    .check(
      z.trim(),
      z.maxLength(DISPLAY_NAME_MAX_LENGTH, `A display name has at most ${DISPLAY_NAME_MAX_LENGTH} characters`),
    ),
);

export const newPasswordField = z
  .string({ error: "Enter a password" })
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, `A password has at least ${PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters`),
  );

const confirmPasswordField = z.string({ error: PASSWORDS_DIFFER_MESSAGE });

/** A new password typed twice, as on the setup, add-user and password-reset forms. */
const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (value) => value.password === value.confirmPassword,
  { message: PASSWORDS_DIFFER_MESSAGE, path: ["confirmPassword"] },
);

const newPasswordFields = { password: newPasswordField, confirmPassword: confirmPasswordField };

export const firstAdminSchema = z
  .object({ username: usernameField, displayName: optionalDisplayNameField, token: z.string(), ...newPasswordFields })
  .check(passwordsMatch);

export const newStaffUserSchema = z
  .object({
    username: usernameField,
    displayName: optionalDisplayNameField,
    role: z.enum(["admin", "staff"], { error: "Choose a role" }),
    ...newPasswordFields,
  })
  .check(passwordsMatch);

export const displayNameSchema = z.object({ displayName: displayNameField });

export const passwordResetSchema = z.object(newPasswordFields).check(passwordsMatch);
