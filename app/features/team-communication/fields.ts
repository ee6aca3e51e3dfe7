import type { FieldDefinition } from "~/forms/definition";
import type { TeamMessage } from "./team-message";
import { reachabilityOf } from "./technician";

/** The message's questions: the one source of their labels for the screen, the inbox, the CSV. */
export const teamMessageFields = [
  {
    name: "recipients",
    label: "Technicians",
    // Printed as the names, each with how it reached them but never the address or number (the staff directory
    // and admins' delivery history have those); the screen draws its own searchable list.
    kind: "text",
    read: (payload) =>
      (payload as TeamMessage).recipients
        .map((recipient) => {
          const reach = reachabilityOf({ canEmail: recipient.email !== null, canText: recipient.phoneNumber !== null });
          return `${recipient.name} (${reach})`;
        })
        .join("; "),
  },
  { name: "subject", label: "Subject", kind: "text", autoComplete: "off" },
  { name: "body", label: "Body", kind: "textarea", rows: 6, wide: true },
] as const satisfies readonly FieldDefinition[];
