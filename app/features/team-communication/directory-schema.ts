import * as z from "zod/mini";
import { optionalTextField, textField } from "~/forms/text-field";

/** One person of the staff directory, as an admin types them. */
export const directoryEntrySchema = z.object({
  name: textField("Name", 120),
  email: z.optional(textField("Email", 254).check(z.email("Enter an email address such as name@example.com."))),
  mobile: optionalTextField("Mobile number", 40),
});

export type DirectoryEntryInput = z.output<typeof directoryEntrySchema>;

/** What each form of the directory screen answers: which form (intent and entry) and how it went. */
export type DirectoryActionResult = {
  intent: string;
  entryId?: number;
  status: "success" | "error";
  message: string;
  problems?: Record<string, string>;
  /** What was typed, when the form was refused: shown again to be corrected. */
  values?: { name: string; email: string; mobile: string };
};
