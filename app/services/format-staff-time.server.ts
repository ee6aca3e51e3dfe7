import { company } from "~/content/company";

/**
 * A time as staff read it, in the company's time zone. Loaders send it formatted: the browser's first
 * Intl.DateTimeFormat loads the calendar and time-zone data, about 200 ms of a desktop's main thread and four
 * times that on a phone, while the page is opening.
 */
export function formatStaffTime(value: Date | string | null): string {
  if (value === null) return "Never";
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: company.timeZone,
  }).format(new Date(value));
}
