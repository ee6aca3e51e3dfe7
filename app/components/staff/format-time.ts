import { company } from "~/content/company";

/** A time as staff read it, in the company's time zone, the same on the server and in the browser. */
export function formatStaffTime(value: Date | string | null): string {
  if (value === null) return "Never";
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: company.timeZone,
  }).format(new Date(value));
}
