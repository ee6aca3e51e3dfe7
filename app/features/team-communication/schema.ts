import * as z from "zod/mini";
import { textField } from "~/forms/text-field";

/** A text longer than this is refused: Twilio sends at most 1,600 characters as one (concatenated) message. */
export const MESSAGE_BODY_MAX_LENGTH = 1600;
export const SUBJECT_MAX_LENGTH = 200;

export const NO_RECIPIENT_MESSAGE = "Please select at least one technician to send the message to.";

/** The chosen technicians' ids: one posted value or several, each a whole number. */
const recipientIds = z.pipe(
  z.transform((value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
  z
    .array(
      z.pipe(
        z.string().check(z.regex(/^\d{1,15}$/, "Choose technicians from the list.")),
        z.transform((id) => Number(id)),
      ),
    )
    .check(z.minLength(1, NO_RECIPIENT_MESSAGE), z.maxLength(500, "Choose at most 500 technicians at a time.")),
);

/** A message to technicians: one schema for the browser and the server. */
export const teamMessageSchema = z.object({
  recipients: recipientIds,
  subject: textField("Subject", SUBJECT_MAX_LENGTH),
  body: textField("Body", MESSAGE_BODY_MAX_LENGTH),
});

export type TeamMessageInput = z.output<typeof teamMessageSchema>;
