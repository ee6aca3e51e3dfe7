import { Link, useFetcher } from "react-router";
import { formatStaffTime } from "~/components/staff/format-time";
import type { DeliveryState, MessageHistoryEntry } from "./message-history.server";

/** A delivery's state as staff read it: queued, sent, or failed with the reason. */
function stateText(state: DeliveryState | "none", none: string): string {
  if (state === "none") return none;
  switch (state.status) {
    case "pending":
      return state.attemptCount === 0 ? "Queued" : `Retrying (${state.lastError ?? "failed before"})`;
    case "sending":
      return "Sending";
    case "delivered":
      return "Sent";
    case "failed":
      return `Failed: ${state.lastError ?? "no reason recorded"}`;
    case "held":
      return "Held";
  }
}

/** Retry of a failed delivery: the inbox's replay of that delivery, the one way a delivery is sent again. */
function RetryButton({ submissionId, state, label }: { submissionId: number; state: DeliveryState; label: string }) {
  const fetcher = useFetcher<{ status: "success" | "error"; message: string }>();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/admin/inbox/${submissionId}`} className="mt-1">
      <input type="hidden" name="intent" value="replay" />
      <input type="hidden" name="deliveryId" value={state.deliveryId} />
      <button type="submit" disabled={busy} aria-label={label} className="button-secondary px-3 py-1 text-sm">
        {busy ? "Retrying..." : "Retry"}
      </button>
      {fetcher.data?.status === "error" ? (
        <p role="alert" className="mt-1 text-sm font-medium text-red-800">
          {fetcher.data.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

function StateCell({
  state,
  none,
  submissionId,
  retryLabel,
}: {
  state: DeliveryState | "none";
  none: string;
  submissionId: number;
  retryLabel: string;
}) {
  const failed = state !== "none" && state.status === "failed";
  return (
    <td className={`px-3 py-2 align-top ${failed ? "font-medium text-red-800" : "text-slate-800"}`}>
      {stateText(state, none)}
      {failed ? <RetryButton submissionId={submissionId} state={state} label={retryLabel} /> : null}
    </td>
  );
}

/** Every recent message with, per recipient and channel, where its email and text are. */
export function MessageHistory({ messages }: { messages: readonly MessageHistoryEntry[] }) {
  if (messages.length === 0) return <p className="mt-6 text-slate-700">No message has been sent yet.</p>;
  return (
    <ol className="mt-6 space-y-8">
      {messages.map((message) => (
        <li key={message.submissionId} aria-labelledby={`message-${message.submissionId}`}>
          <article className="rounded-xl border border-slate-300 p-4">
            <h2 id={`message-${message.submissionId}`} className="text-lg font-bold text-slate-900">
              {message.subject}
            </h2>
            <p className="text-sm text-slate-700">
              {formatStaffTime(message.sentAt)} by {message.sender} ·{" "}
              <Link to={`/admin/inbox/${message.submissionId}`} className="text-brand-800 underline">
                {message.reference}: every attempt
              </Link>
            </p>
            <div className="mt-3">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Recipients of {message.subject}</caption>
                <thead>
                  <tr className="border-b border-slate-300">
                    <th scope="col" className="px-3 py-2">
                      Recipient
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Email
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Text
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {message.recipients.map((recipient) => (
                    <tr key={recipient.id} className="border-b border-slate-200">
                      <th scope="row" className="px-3 py-2 align-top font-medium">
                        {recipient.name}
                      </th>
                      <StateCell
                        state={recipient.email}
                        none="No email address"
                        submissionId={message.submissionId}
                        retryLabel={`Retry the email to ${recipient.name}`}
                      />
                      <StateCell
                        state={recipient.text}
                        none="No mobile number we can text"
                        submissionId={message.submissionId}
                        retryLabel={`Retry the text to ${recipient.name}`}
                      />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="mt-2 text-sm text-slate-700">
              Automation webhook: {stateText(message.webhook, "not configured")}
              {message.webhook !== "none" && message.webhook.status === "failed" ? (
                <RetryButton submissionId={message.submissionId} state={message.webhook} label="Retry the webhook" />
              ) : null}
            </div>
          </article>
        </li>
      ))}
    </ol>
  );
}
