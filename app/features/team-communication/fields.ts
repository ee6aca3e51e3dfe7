import type { FieldDefinition } from "~/forms/definition";
import type { TeamMessage } from "./team-message";

/** The message's questions: the one source of their labels for the screen, the inbox, the CSV. */
export const teamMessageFields = [
  {
    name: "recipients",
    label: "Technicians",
    // Printed as the names, each with where it went; the screen draws its own searchable list.
    kind: "text",
    read: (payload) =>
      (payload as TeamMessage).recipients
        .map((recipient) => {
          const channels = [recipient.email, recipient.phoneNumber].filter((value) => value !== null).join(", ");
          return `${recipient.name} (${channels || "no email or mobile number"})`;
        })
        .join("; "),
  },
  { name: "subject", label: "Subject", kind: "text", autoComplete: "off" },
  { name: "body", label: "Body", kind: "textarea", rows: 6, wide: true },
] as const satisfies readonly FieldDefinition[];
