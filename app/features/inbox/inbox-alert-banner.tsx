import { Link, useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { IntentForm } from "~/components/forms/intent-form";
import type { StaffFormResult } from "~/forms/staff-form-result";

/** The intent of the failed-delivery alert's Acknowledge form. */
export const ACKNOWLEDGE_FAILURES_INTENT = "acknowledge-failures";

/** `acknowledge`: what names the failures shown, posted back by the alert's Acknowledge form. */
export type InboxAlert = { message: string; linkText: string; href: string; acknowledge?: string };

/**
 * The dashboard's warnings about the inbox, for admins, each one line with a link to the submissions it is about,
 * and the answer to Acknowledge above them: an acknowledged alert is gone from the page that answers.
 */
export function InboxAlertBanner({ alerts }: { alerts: readonly InboxAlert[] }) {
  const result = useActionData<StaffFormResult>();
  return (
    <>
      <OutcomeAlert outcome={result?.intent === ACKNOWLEDGE_FAILURES_INTENT ? result : undefined} />
      {alerts.length === 0 ? null : (
        <section aria-labelledby="inbox-alerts-heading" className="rounded-xl border-2 border-red-700 bg-red-50 p-3">
          <h2 id="inbox-alerts-heading" className="font-bold text-red-900">
            Needs attention
          </h2>
          <ul className="mt-1 space-y-2">
            {alerts.map((alert) => (
              <li key={alert.href} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-red-900">
                <span>
                  {alert.message}{" "}
                  <Link to={alert.href} className="font-semibold underline">
                    {alert.linkText}
                  </Link>
                </span>
                {alert.acknowledge === undefined ? null : (
                  <IntentForm
                    intent={ACKNOWLEDGE_FAILURES_INTENT}
                    label="Acknowledge"
                    busyLabel="Acknowledging..."
                    showOutcome={false}
                  >
                    <input type="hidden" name="seen" value={alert.acknowledge} />
                  </IntentForm>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
