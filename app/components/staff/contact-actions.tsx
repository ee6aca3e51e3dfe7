import { LineIcon } from "~/components/line-icon";

// Outlines of a handset, a speech bubble and an envelope, drawn in one stroke each.
const ICON_PATHS = {
  phone: "M5 3h4l2 5-2.5 1.5a11 11 0 0 0 6 6L16 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 5a2 2 0 0 1 2-2z",
  message: "M4 5h16v11H8l-4 4z",
  mail: "M3 6h18v12H3zM3 6l9 7 9-7",
} as const;

/**
 * The number as a `tel:` or `sms:` address: its digits, with a leading + kept. A US number of ten digits gets
 * its country code, so a phone abroad (or one set to another region) still dials the right place.
 */
export function dialableNumber(written: string): string | null {
  const digits = written.replace(/[^\d]/g, "");
  if (digits.length < 3) return null;
  if (written.trim().startsWith("+")) return `+${digits}`;
  return digits.length === 10 ? `+1${digits}` : digits;
}

type Contact = { name: string; phone: string; email: string };

/**
 * Call, Text and Email for a person who wrote in: links that open the phone's dialer, messages and mail, one
 * tap each, at least 44 px square. Absent ways are left out, not shown disabled; nothing shows with neither.
 * `size="large"` is the lead's own page, where they stand side by side under the name.
 */
export function ContactActions({ contact, size = "compact" }: { contact: Contact; size?: "compact" | "large" }) {
  const number = dialableNumber(contact.phone);
  const email = contact.email.trim();
  const who = contact.name.trim() || contact.phone || email;
  const actions = [
    ...(number
      ? [
          { label: "Call", href: `tel:${number}`, icon: ICON_PATHS.phone, at: contact.phone },
          { label: "Text", href: `sms:${number}`, icon: ICON_PATHS.message, at: contact.phone },
        ]
      : []),
    ...(email ? [{ label: "Email", href: `mailto:${email}`, icon: ICON_PATHS.mail, at: email }] : []),
  ];
  if (actions.length === 0) return null;
  const look =
    size === "large"
      ? "button-secondary min-w-0 flex-1 gap-2 px-3"
      : "inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-full border-2 border-brand-700 bg-white px-3 text-sm font-semibold text-brand-800 hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-brand-700";
  return (
    <ul aria-label={`Contact ${who}`} className={`flex gap-2 ${size === "large" ? "mt-4" : ""}`}>
      {actions.map((action) => (
        <li key={action.label} className={size === "large" ? "flex flex-1" : ""}>
          <a href={action.href} className={look} aria-label={`${action.label} ${who} at ${action.at}`}>
            <LineIcon size={18} path={action.icon} />
            {action.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
