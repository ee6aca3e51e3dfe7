import { data } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import {
  CalendarAddressSection,
  MAKE_CALENDAR_ADDRESS_INTENT,
} from "~/features/calendar-feed/calendar-address-section";
import {
  loadCalendarAddress,
  makeCalendarAddressAnswer,
} from "~/features/calendar-feed/calendar-address-settings.server";
import { TwoFactorSettingsSection } from "~/features/staff-accounts/two-factor-settings-section";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { signedInStaff } from "~/server/auth/require-staff.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => staffPageMeta("Your settings");

export async function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  return { calendar: await loadCalendarAddress(context, staff), twoFactorEnrolled: staff.totpSecret !== null };
}

/** Each section's form posts its `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = signedInStaff(context);
  const intent = String((await readStaffForm(request)).get("intent"));
  if (intent === MAKE_CALENDAR_ADDRESS_INTENT) return makeCalendarAddressAnswer(context, staff, intent);
  return data({ status: "error", message: "Unknown action.", intent } satisfies StaffFormResult, { status: 400 });
}

export default function Account({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage title="Your settings" intro="What this account keeps for you alone." width="max-w-3xl">
      <CalendarAddressSection state={loaderData.calendar} />
      <TwoFactorSettingsSection enrolled={loaderData.twoFactorEnrolled} />
    </StaffPage>
  );
}
