import { DateTime } from "luxon";
import { company } from "~/content/company";
import type { QuietHours } from "~/services/config.server";

/** Whether `now` falls in the quiet hours on the company's clock; a span whose end comes first runs past midnight. */
export function isQuietTime(quiet: QuietHours | undefined, now: Date): boolean {
  if (!quiet) return false;
  const clock = DateTime.fromJSDate(now, { zone: company.timeZone });
  const minute = clock.hour * 60 + clock.minute;
  return quiet.from < quiet.until
    ? minute >= quiet.from && minute < quiet.until
    : minute >= quiet.from || minute < quiet.until;
}
