import { useActionData } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { IntentForm } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";
import type { DeliveryStatus } from "~/server/db/schema.server";
import type { SubmissionDetail } from "./submission-detail.server";
import type { SubmissionActionResult } from "./submission-page.server";

type Delivery = SubmissionDetail["deliveries"][number];

/**
 * What staff read for a delivery's state; one that has failed before and is tried again is retrying, and a
 * held one says why (spam, or a target no longer configured).
 */
function deliveryStateLabel(status: DeliveryStatus, attemptCount: number, lastError: string | null): string {
  switch (status) {
    case "pending":
      return attemptCount === 0 ? "Waiting to be sent" : "Retrying";
    case "sending":
      return attemptCount > 1 ? "Retrying (sending now)" : "Sending now";
    case "delivered":
      return "Delivered";
    case "failed":
      return "Failed";
    case "held":
      return lastError ? `Held: ${lastError}` : "Held (spam)";
  }
}

function AttemptList({ attempts, destination }: { attempts: Delivery["attempts"]; destination: string }) {
  if (attempts.length === 0) return <p className="mt-2 text-slate-700">Not tried yet.</p>;
  return (
    <ol className="mt-2 space-y-1 text-sm">
      {attempts.map((attempt, index) => (
        <li key={attempt.id} className="break-words">
          <span className="font-semibold">Attempt {index + 1}</span>, {attempt.started}:{" "}
          {attempt.succeeded ? "succeeded" : "failed"}
          {attempt.httpStatus === null ? "" : `, HTTP ${attempt.httpStatus}`}
          {attempt.error ? `, ${attempt.error}` : ""}, {attempt.durationMs} ms
          {attempt.destination && attempt.destination !== destination ? `, to ${attempt.destination}` : ""}
        </li>
      ))}
    </ol>
  );
}

/** Every delivery of the submission and every attempt of each, with Replay where it applies. */
export function DeliveryHistory({ deliveries }: { deliveries: SubmissionDetail["deliveries"] }) {
  const result = useActionData<SubmissionActionResult>();
  return (
    <StaffSection headingId="deliveries-heading" title="Deliveries" className="mt-10">
      <OutcomeAlert outcome={result?.intent === "replay" ? result : undefined} className="mt-2" />
      {deliveries.length === 0 ? (
        <p className="mt-2 text-slate-700">No target was configured, so it was stored only.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {deliveries.map((delivery) => (
            <li
              key={delivery.id}
              aria-label={`Delivery ${delivery.id} to ${delivery.target}`}
              className="rounded-lg border border-slate-300 p-4"
            >
              <p className="font-semibold text-slate-900">
                {delivery.target} ({delivery.channel})
              </p>
              {delivery.destination ? <p className="break-all text-sm text-slate-700">{delivery.destination}</p> : null}
              <p className="mt-1">
                Status:{" "}
                <strong>{deliveryStateLabel(delivery.status, delivery.attemptCount, delivery.lastError)}</strong>
                {delivery.status === "pending" && delivery.attemptCount > 0 ? `, next try ${delivery.nextTry}` : ""}
                {delivery.delivered ? `, ${delivery.delivered}` : ""}. Attempts: {delivery.attemptCount}.
              </p>
              <p className="break-all text-sm text-slate-700">webhook-id {delivery.webhookId}</p>
              <AttemptList attempts={delivery.attempts} destination={delivery.destination} />
              {delivery.canReplay && delivery.replayTo === null ? (
                <p className="mt-3 text-slate-700">{delivery.target} is not set, so this cannot be replayed.</p>
              ) : null}
              {delivery.canReplay && delivery.replayTo !== null ? (
                <div className="mt-3">
                  {delivery.replayTo ? (
                    <p className="break-all text-sm text-slate-700">A replay goes to {delivery.replayTo}.</p>
                  ) : null}
                  <IntentForm intent="replay" label="Replay" busyLabel="Replaying..." showOutcome={false}>
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                  </IntentForm>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </StaffSection>
  );
}
