import { useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { IntentForm } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";
import type { SubmissionDetail } from "./submission-detail.server";
import type { SubmissionActionResult } from "./submission-page.server";

type AdminDetails = NonNullable<SubmissionDetail["deliveries"][number]["details"]>;

const DELIVERY_TONES: Record<SubmissionDetail["deliveries"][number]["status"], string> = {
  delivered: "border-brand-700",
  pending: "border-amber-600",
  sending: "border-amber-600",
  failed: "border-red-700",
  held: "border-slate-400",
};

/** For admins: the setting, where it went, its webhook-id and every attempt. */
function AdminDeliveryDetails({ details }: { details: AdminDetails }) {
  return (
    <details className="mt-2 text-sm text-slate-700">
      <summary className="cursor-pointer py-2.5 font-medium text-brand-900">Details for admins</summary>
      <p className="break-all">
        {details.target} ({details.channel}){details.destination ? `: ${details.destination}` : ""}
      </p>
      <p className="break-all">webhook-id {details.webhookId}</p>
      <p>
        Attempts: {details.attemptCount}.{details.lastError ? ` Last error: ${details.lastError}` : ""}
      </p>
      {details.attempts.length > 0 ? (
        <ol className="mt-1 space-y-1">
          {details.attempts.map((attempt, index) => (
            <li key={attempt.id} className="break-words">
              <span className="font-semibold">Attempt {index + 1}</span>, {attempt.started}:{" "}
              {attempt.succeeded ? "succeeded" : "failed"}
              {attempt.httpStatus === null ? "" : `, HTTP ${attempt.httpStatus}`}
              {attempt.error ? `, ${attempt.error}` : ""}, {attempt.durationMs} ms
              {attempt.destination && attempt.destination !== details.destination ? `, to ${attempt.destination}` : ""}
            </li>
          ))}
        </ol>
      ) : null}
      {details.replayTo ? <p className="break-all">A replay goes to {details.replayTo}.</p> : null}
    </details>
  );
}

/**
 * Sending a delivered message again (admins, once a day): the first press opens the question, the second sends,
 * with or without JavaScript; the server refuses a post without the confirmation.
 */
function SendAgainConfirmation({ deliveryId }: { deliveryId: number }) {
  return (
    <details className="mt-2">
      <summary className="cursor-pointer py-2.5 font-medium text-brand-900">Send again...</summary>
      <div className="mt-2 space-y-2">
        <p>It was delivered. Send it again? A delivered message can be sent again once a day.</p>
        <IntentForm intent="replay" label="Yes, send it again" busyLabel="Sending again..." showOutcome={false}>
          <input type="hidden" name="deliveryId" value={deliveryId} />
          <input type="hidden" name="confirmed" value="yes" />
        </IntentForm>
      </div>
    </details>
  );
}

/**
 * What became of each delivery, in words staff read at a glance, with Replay where it applies; an admin can
 * open the setting, address, id and attempts of each.
 */
export function DeliveryHistory({
  deliveries,
  notSentTo,
}: {
  deliveries: SubmissionDetail["deliveries"];
  notSentTo: SubmissionDetail["notSentTo"];
}) {
  const result = useActionData<SubmissionActionResult>();
  return (
    <StaffSection headingId="deliveries-heading" title="Deliveries" className="mt-10">
      <OutcomeAlert outcome={result?.intent === "replay" ? result : undefined} className="mt-2" />
      {deliveries.length === 0 && notSentTo.length === 0 ? (
        <p className="mt-2 text-slate-700">Not sent anywhere: it is kept here only.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {notSentTo.map((sentence) => (
            <li key={sentence} className="rounded-lg border-l-4 border-slate-400 bg-slate-50 p-3">
              {sentence}
            </li>
          ))}
          {deliveries.map((delivery) => (
            <li
              key={delivery.id}
              aria-label={`Delivery to ${delivery.recipient}`}
              className={`rounded-lg border-l-4 bg-slate-50 p-3 ${DELIVERY_TONES[delivery.status]}`}
            >
              <p>{delivery.inWords}</p>
              {delivery.replay === "target-unset" ? (
                <p className="mt-1 text-slate-700">
                  It cannot be replayed until an admin sets {delivery.recipient} up.
                </p>
              ) : null}
              {delivery.replay === "possible" ? (
                <div className="mt-2">
                  <IntentForm intent="replay" label="Replay" busyLabel="Replaying..." showOutcome={false}>
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                  </IntentForm>
                </div>
              ) : null}
              {delivery.replay === "confirm" ? <SendAgainConfirmation deliveryId={delivery.id} /> : null}
              {delivery.replayAgainAfter ? (
                <p className="mt-1 text-slate-700">{`It can be sent again after ${delivery.replayAgainAfter}.`}</p>
              ) : null}
              {delivery.details ? <AdminDeliveryDetails details={delivery.details} /> : null}
            </li>
          ))}
        </ul>
      )}
    </StaffSection>
  );
}
