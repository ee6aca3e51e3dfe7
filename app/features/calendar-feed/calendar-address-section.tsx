import { lazy, Suspense } from "react";
import { useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { IntentForm } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";
import type { StaffFormResult } from "~/forms/staff-form-result";

export const MAKE_CALENDAR_ADDRESS_INTENT = "make-calendar-address";
export const TURN_OFF_CALENDAR_ADDRESS_INTENT = "turn-off-calendar-address";

// Imported here as well as by the Quick Links cards, the button would join the script every staff page loads
// (vite-plugins/client-chunks.ts); it is needed only once an address is made, so it loads then.
const CopyLinkButton = lazy(async () => ({ default: (await import("~/components/copy-link-button")).CopyLinkButton }));

/** Whether the user has a calendar address, and when it was made (staff time); the address itself is not kept. */
export type CalendarAddressState = { madeAt: string | null };

/** The answer to making one: the new address, shown this once. */
export type CalendarAddressResult = StaffFormResult & { calendarAddress?: string };

/**
 * "Your calendar" on the settings page: the private address calendar apps subscribe to, with the appointments
 * of the estimate and job requests. The database keeps only a hash of it, so it is shown once, when it is made.
 */
export function CalendarAddressSection({ state }: { state: CalendarAddressState }) {
  const answer = useActionData<CalendarAddressResult>();
  const address = answer?.intent === MAKE_CALENDAR_ADDRESS_INTENT ? answer.calendarAddress : undefined;
  return (
    <StaffSection headingId="calendar-heading" title="Your calendar" className="mt-10">
      <p className="mt-2 max-w-2xl text-slate-700">
        A private address for your phone's or computer's calendar: it lists the estimate appointments and jobs of the
        estimate and job requests you may see, in New York time, and follows their changes. A cancelled one shows as
        cancelled. Keep the address to yourself: anyone who has it can read these appointments.
      </p>
      <p className="mt-3 text-slate-800">
        {state.madeAt ? `You made your calendar address on ${state.madeAt}.` : "You have no calendar address yet."}
      </p>
      <div className="mt-4">
        <IntentForm
          intent={MAKE_CALENDAR_ADDRESS_INTENT}
          label={state.madeAt ? "Replace my calendar address" : "Make my calendar address"}
          busyLabel="Making the address…"
        >
          {state.madeAt ? (
            <p className="text-sm text-slate-700">
              Replacing it makes a new address; the old one stops working at once, on every device that used it.
            </p>
          ) : null}
        </IntentForm>
      </div>
      {address ? <NewCalendarAddress address={address} /> : null}
      {state.madeAt ? (
        <div className="mt-4">
          <IntentForm
            intent={TURN_OFF_CALENDAR_ADDRESS_INTENT}
            label="Turn off my calendar address"
            busyLabel="Turning it off…"
            showOutcome={false}
          >
            <p className="text-sm text-slate-700">
              For a lost phone or a calendar you no longer use: the address stops working at once, and you can make a
              new one later.
            </p>
          </IntentForm>
        </div>
      ) : null}
      {/* Outside the form, which is gone once the address is. */}
      <OutcomeAlert
        outcome={answer?.intent === TURN_OFF_CALENDAR_ADDRESS_INTENT ? answer : undefined}
        className="mt-4"
      />
    </StaffSection>
  );
}

function NewCalendarAddress({ address }: { address: string }) {
  return (
    <div className="mt-6 rounded-2xl border border-brand-700 bg-brand-50 p-5">
      <h3 className="text-lg font-bold text-slate-900">Your calendar address</h3>
      <p className="mt-1 text-slate-800">It is shown only now. Copy it into your calendar app.</p>
      <p className="mt-3 break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900">{address}</p>
      <div className="mt-3 min-h-11">
        <Suspense fallback={null}>
          <CopyLinkButton path={address} title="your calendar address" />
        </Suspense>
      </div>
      <ul className="mt-4 list-disc space-y-1 pl-5 text-slate-800">
        <li>
          Google Calendar (on a computer): Other calendars, <strong>+</strong>, <strong>From URL</strong>, paste the
          address, Add calendar.
        </li>
        <li>
          iPhone: Settings &gt; Calendar &gt; Accounts &gt; Add Account &gt; Other &gt;{" "}
          <strong>Add Subscribed Calendar</strong>, paste the address.
        </li>
        <li>Outlook: Add calendar, Subscribe from web, paste the address.</li>
      </ul>
    </div>
  );
}
