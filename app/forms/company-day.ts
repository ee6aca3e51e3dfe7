import { company } from "~/content/company";

/** Today on the company's calendar (YYYY-MM-DD), wherever the server or the phone is. */
export function companyToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: company.timeZone }).format(now);
}
