import * as z from "zod/mini";
import { REQUIRED_MESSAGE } from "./required-message";

/** The usual caps of a staff form's one-line answer (a name, an address) and of a longer note. */
export const SHORT_TEXT_MAX_LENGTH = 200;
export const LONG_TEXT_MAX_LENGTH = 5_000;

// Control characters other than tab, line feed and carriage return have no place in a form field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to find them
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A trimmed text field with a length cap and no control characters. Empty inputs arrive as undefined. */
export function textField(label: string, maxLength: number) {
  return z.string({ error: REQUIRED_MESSAGE }).check(
    z.trim(),
    z.minLength(1, REQUIRED_MESSAGE),
    z.maxLength(maxLength, `${label} is too long (at most ${maxLength} characters)`),
    z.refine((value) => !CONTROL_CHARACTERS.test(value), `${label} contains characters we cannot accept`),
  );
}

export function optionalTextField(label: string, maxLength: number) {
  return z.optional(textField(label, maxLength));
}

/**
 * An email answer its form checks no further (the estimate's, the checklist's), kept to one line: an address
 * with a line break, sent as a Reply-To, could shape the mail's headers.
 */
export function singleLineEmail<Field extends z.ZodMiniType<string | undefined>>(field: Field): Field {
  return field.check(
    z.refine((value) => !/[\r\n]/.test(value ?? ""), "Enter an email address such as name@example.com"),
  ) as Field;
}

/** One email address (not a list), trimmed, of at most 254 characters, as mail servers take them. */
export function emailAddress(label: string) {
  return z
    .string({ error: REQUIRED_MESSAGE })
    .check(
      z.trim(),
      z.minLength(1, REQUIRED_MESSAGE),
      z.maxLength(254, `${label} is too long (at most 254 characters)`),
      z.email("Enter an email address such as name@example.com"),
    );
}
