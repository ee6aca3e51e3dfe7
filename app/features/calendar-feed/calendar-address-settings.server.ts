import { type AppLoadContext, data } from "react-router";
import { calendarAddressMadeAt, turnOffCalendarAddress } from "~/services/auth/calendar-addresses.server";
import type { SignedInStaff } from "~/services/auth/require-staff.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { calendarFeedPath, makeCalendarAddress } from "./calendar-address.server";
import type { CalendarAddressResult, CalendarAddressState } from "./calendar-address-section";

/** What the settings page shows of the user's calendar address: only whether there is one, and since when. */
export async function loadCalendarAddress(
  context: AppLoadContext,
  staff: Pick<SignedInStaff, "id">,
): Promise<CalendarAddressState> {
  const madeAt = await calendarAddressMadeAt(context.db, staff.id);
  return { madeAt: madeAt ? formatStaffTime(madeAt) : null };
}

/** Makes (or replaces) the user's calendar address and answers it, shown this once. */
export async function makeCalendarAddressAnswer(
  context: AppLoadContext,
  staff: Pick<SignedInStaff, "id">,
  intent: string,
) {
  const replaced = (await calendarAddressMadeAt(context.db, staff.id)) !== undefined;
  const token = await makeCalendarAddress(context.db, staff.id);
  context.logger.info({ userId: staff.id, replaced }, "calendar address made");
  return data({
    status: "success",
    message: replaced
      ? "Your new calendar address is below. The old one no longer works: subscribe to this one instead."
      : "Your calendar address is below.",
    intent,
    calendarAddress: `${context.config.SITE_URL}${calendarFeedPath(token)}`,
  } satisfies CalendarAddressResult);
}

/** Turns the user's calendar address off: calendar apps subscribed to it get nothing more. */
export async function turnOffCalendarAddressAnswer(
  context: AppLoadContext,
  staff: Pick<SignedInStaff, "id">,
  intent: string,
) {
  const turnedOff = await turnOffCalendarAddress(context.db, staff.id);
  context.logger.info({ userId: staff.id, turnedOff }, "calendar address turned off");
  return data({
    status: "success",
    message: turnedOff
      ? "Your calendar address is off: calendar apps subscribed to it get no more appointments."
      : "You have no calendar address.",
    intent,
  } satisfies CalendarAddressResult);
}
