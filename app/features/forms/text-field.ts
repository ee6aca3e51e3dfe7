import { z } from "zod";

export const REQUIRED_MESSAGE = "required";

// Control characters other than tab, line feed and carriage return have no place in a form field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to find them
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A trimmed text field with a length cap and no control characters. Conform turns empty inputs into undefined. */
export function textField(label: string, maxLength: number, { required = true } = {}) {
  const field = z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .max(maxLength, `${label} is too long (at most ${maxLength} characters)`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `${label} contains characters we cannot accept`);
  return required ? field.min(1, REQUIRED_MESSAGE) : field.optional();
}
