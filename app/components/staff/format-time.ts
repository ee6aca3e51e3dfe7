/** Where the company works: staff read times, and pick dates, in this zone. */
export const COMPANY_TIME_ZONE = "America/New_York";

/** A time as staff read it, in the company's time zone, the same on the server and in the browser. */
export function formatStaffTime(value: Date | string | null): string {
  if (value === null) return "Never";
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: COMPANY_TIME_ZONE,
  }).format(new Date(value));
}
