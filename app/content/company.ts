/**
 * The company's identity. Every value here is a placeholder (phone numbers are in the fictional 555-01xx
 * range); rebranding the site means editing this file and dropping photos into assets/images/.
 */
export const company = {
  name: "Example Electric Co.",
  shortName: "Example Electric",
  legalNote: "Placeholder company for demonstration",
  tagline: "Safety, quality, experience, reliability, and integrity.",
  welcomeLine: "Welcome to Example Electric Co.",
  serviceAreaLine: "We proudly serve the Tri County and surrounding areas",
  areaServed: ["Sumter County, SC", "Clarendon County, SC", "Lee County, SC", "The Carolinas"],
  founded: 2022,
  /** Where the company works: staff read times, and appointments are kept, in this zone. */
  timeZone: "America/New_York",
  phone: { display: "(803) 555-0142", href: "tel:+18035550142" },
  /** For a power failure or a hazard outside office hours. */
  afterHoursPhone: { display: "(803) 555-0143", href: "tel:+18035550143" },
  /** The state contractor's license: a placeholder number, as every value here. */
  license: {
    label: "SC Mechanical Contractor License No. M-000000 (placeholder)",
    number: "M-000000",
    issuer: "South Carolina Contractor's Licensing Board",
  },
  insurance: "Licensed and insured",
  /** Office hours, in the company's time zone; `days` as schema.org names them. */
  hours: [
    {
      label: "Monday to Friday",
      days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
      opens: "07:00",
      closes: "17:00",
    },
    { label: "Saturday", days: ["Saturday"], opens: "08:00", closes: "12:00" },
  ],
  email: "office@example.com",
  street: { line1: "123 Example Street", city: "Sumter", region: "SC", postalCode: "29150" },
  mailing: { line1: "PO Box 555", city: "Sumter", region: "SC", postalCode: "29151" },
  ceo: { name: "Jordan Example", title: "Chief Executive Officer" },
  social: { label: "Example Electric Co. on Facebook", href: "https://www.facebook.com/example" },
  designer: { label: "Site by Example Web Studio", href: "https://example.com/" },
  map: {
    title: "Map of the Example Electric Co. office in Sumter, South Carolina",
    /** The embed's address; the page's is worked out from the street (officeMapAddresses). */
    src: "https://www.google.com/maps?q=Sumter,+SC+29150&output=embed",
  },
  claims: [
    "Founded in 2022",
    "Close to four decades of combined team experience",
    "Serving the Carolinas",
    "Currently taking commercial projects only",
  ],
} as const;

export function formatAddress(address: { line1: string; city: string; region: string; postalCode: string }): string {
  return `${address.line1}, ${address.city}, ${address.region} ${address.postalCode}`;
}

/** "7:00 AM" from "07:00". */
function clockTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  const suffix = hours < 12 ? "AM" : "PM";
  return `${((hours + 11) % 12) + 1}:${String(minutes).padStart(2, "0")} ${suffix}`;
}

/** The office hours as people read them: "Monday to Friday, 7:00 AM to 5:00 PM". */
export function officeHoursLines(hours: readonly { label: string; opens: string; closes: string }[]): string[] {
  return hours.map((period) => `${period.label}, ${clockTime(period.opens)} to ${clockTime(period.closes)}`);
}

/**
 * The office on Google Maps: the embed's address, and the maps site's own page for it, for when the embed cannot
 * load.
 */
export function officeMapAddresses(street: { line1: string; city: string; region: string; postalCode: string }) {
  const query = (...parts: string[]) => parts.map((part) => encodeURIComponent(part).replaceAll("%20", "+")).join(",+");
  return {
    src: `https://www.google.com/maps?q=${query(street.city, `${street.region} ${street.postalCode}`)}&output=embed`,
    link: `https://www.google.com/maps/search/?api=1&query=${query(street.line1, street.city, `${street.region} ${street.postalCode}`)}`,
  };
}
