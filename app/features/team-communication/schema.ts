import * as z from "zod/mini";
import { field, formFields, text, textarea } from "~/forms/field-builders";
import type { TeamMessage } from "./team-message";
import { reachabilityOf } from "./technician";

/** A text longer than this is refused: Twilio sends at most 1,600 characters as one (concatenated) message. */
export const MESSAGE_BODY_MAX_LENGTH = 1600;
export const SUBJECT_MAX_LENGTH = 200;

export const NO_RECIPIENT_MESSAGE = "Please select at least one technician to send the message to.";

/** Where a limit that refused the whole message (too many recipients, too many sent) is said, beside Send. */
export const SEND_PROBLEM = "send";

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
    .check(z.minLength(1, NO_RECIPIENT_MESSAGE)),
);

/** A message to technicians: one schema for the browser and the server, and its labels for the screen, the inbox, the CSV. */
export const { schema: teamMessageSchema, fields: teamMessageFields } = formFields(
  // Printed as the names, each with where it went; the screen draws its own searchable list.
  field("text", "recipients", "Technicians", recipientIds, {
    // Each name with how it reached them, never the address or number (the staff directory and admins'
    // delivery history have those).
    read: (payload) =>
      (payload as TeamMessage).recipients
        .map((recipient) => {
          const reach = reachabilityOf({ canEmail: recipient.email !== null, canText: recipient.phoneNumber !== null });
          return `${recipient.name} (${reach})`;
        })
        .join("; "),
  }),
  text("subject", "Subject", { max: SUBJECT_MAX_LENGTH, autoComplete: "off" }),
  textarea("body", "Body", { max: MESSAGE_BODY_MAX_LENGTH, rows: 6, wide: true }),
);

export type TeamMessageInput = z.output<typeof teamMessageSchema>;
