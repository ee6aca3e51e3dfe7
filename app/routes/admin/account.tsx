import { data } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import {
  CalendarAddressSection,
  MAKE_CALENDAR_ADDRESS_INTENT,
  TURN_OFF_CALENDAR_ADDRESS_INTENT,
} from "~/features/calendar-feed/calendar-address-section";
import {
  loadCalendarAddress,
  makeCalendarAddressAnswer,
  turnOffCalendarAddressAnswer,
} from "~/features/calendar-feed/calendar-address-settings.server";
import { PushNotificationsSection } from "~/features/push-notifications/push-notifications-section";
import { PUSH_INTENTS } from "~/features/push-notifications/push-schema";
import { loadPushSettings, pushSettingsAction } from "~/features/push-notifications/push-settings.server";
import { TwoFactorSettingsSection } from "~/features/staff-accounts/two-factor-settings-section";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { staffFormError } from "~/forms/staff-form-result";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => staffPageMeta("Your settings");

export async function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  const [push, calendar] = await Promise.all([loadPushSettings(context, staff), loadCalendarAddress(context, staff)]);
  return { push, calendar, twoFactorEnrolled: staff.totpSecret !== null };
}

const pushIntents: readonly string[] = Object.values(PUSH_INTENTS);

/** Each section's form posts its `intent`. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = signedInStaff(context);
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent") ?? "");
  if (intent === MAKE_CALENDAR_ADDRESS_INTENT) return makeCalendarAddressAnswer(context, staff, intent);
  if (intent === TURN_OFF_CALENDAR_ADDRESS_INTENT) return turnOffCalendarAddressAnswer(context, staff, intent);
  if (pushIntents.includes(intent)) {
    const result = await pushSettingsAction(context, staff, intent, formData, request.headers.get("user-agent"));
    return data(result, { status: result.status === "error" ? 400 : 200 });
  }
  throw staffFormError("The page sent an unknown request. Reload it and try again.", 400);
}

export default function Account({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage title="Your settings" intro="What this account keeps for you alone." width="max-w-3xl">
      <PushNotificationsSection settings={loaderData.push} />
      <CalendarAddressSection state={loaderData.calendar} />
      <TwoFactorSettingsSection enrolled={loaderData.twoFactorEnrolled} />
    </StaffPage>
  );
}
