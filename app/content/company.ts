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
  email: "office@example.com",
  street: { line1: "123 Example Street", city: "Sumter", region: "SC", postalCode: "29150" },
  mailing: { line1: "PO Box 555", city: "Sumter", region: "SC", postalCode: "29151" },
  ceo: { name: "Jordan Example", title: "Chief Executive Officer" },
  social: { label: "Example Electric Co. on Facebook", href: "https://www.facebook.com/example" },
  designer: { label: "Site by Example Web Studio", href: "https://example.com/" },
  map: {
    title: "Map of the Example Electric Co. office in Sumter, South Carolina",
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
