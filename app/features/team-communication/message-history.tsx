import { Link, useFetcher } from "react-router";
import { StaffTable, type StaffTableColumn } from "~/components/staff/staff-table";
import type { DeliveryState, MessageHistoryEntry, NotMade } from "./message-history.server";

/** A delivery's state as staff read it: queued, sent, failed with the reason, or why it was never made. */
function stateText<Why extends string>(state: DeliveryState | Why, unmade: Record<Why, string>): string {
  if (typeof state === "string") return unmade[state];
  switch (state.status) {
    case "pending":
      return state.attemptCount === 0 ? "Queued" : `Retrying (${state.failure ?? "failed before"})`;
    case "sending":
      return "Sending";
    case "delivered":
      return "Sent";
    case "failed":
      return `Failed: ${state.failure ?? "no reason recorded"}`;
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

const failed = (state: DeliveryState | string): state is DeliveryState =>
  typeof state !== "string" && state.status === "failed";

/** Where a delivery is, with Retry when it failed. */
function DeliveryStatus<Why extends string>(props: {
  state: DeliveryState | Why;
  unmade: Record<Why, string>;
  submissionId: number;
  retryLabel: string;
}) {
  return (
    <>
      {stateText(props.state, props.unmade)}
      {failed(props.state) ? (
        <RetryButton submissionId={props.submissionId} state={props.state} label={props.retryLabel} />
      ) : null}
    </>
  );
}

/** A recipient's email or text, in red when it failed. */
function channelColumn(
  channel: "email" | "text",
  unmade: Record<NotMade, string>,
  submissionId: number,
): StaffTableColumn<MessageHistoryEntry["recipients"][number]> {
  return {
    header: channel === "email" ? "Email" : "Text",
    className: (recipient) => (failed(recipient[channel]) ? "font-medium text-red-800" : "text-slate-800"),
    cell: (recipient) => (
      <DeliveryStatus
        state={recipient[channel]}
        unmade={unmade}
        submissionId={submissionId}
        retryLabel={`Retry the ${channel} to ${recipient.name}`}
      />
    ),
  };
}

// The person's record is blamed only where it lacks the address; a service not set up is the server's.
const EMAIL_NOT_MADE: Record<NotMade, string> = {
  "no-address": "No email address",
  "not-set-up": "Not sent: email was not set up on this server",
};
const TEXT_NOT_MADE: Record<NotMade, string> = {
  "no-address": "No mobile number we can text",
  "not-set-up": "Not sent: texts were not set up on this server",
};
const WEBHOOK_NOT_MADE = { none: "not set up on this server" };

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
              {message.sentAt} by {message.sender} ·{" "}
              <Link to={`/admin/inbox/${message.submissionId}`} className="text-brand-800 underline">
                {message.reference}: every attempt
              </Link>
            </p>
            <StaffTable
              caption={`Recipients of ${message.subject}`}
              rows={message.recipients}
              rowKey={(recipient) => recipient.id}
              columns={[
                { header: "Recipient", namesRow: true, className: "font-medium", cell: (recipient) => recipient.name },
                channelColumn("email", EMAIL_NOT_MADE, message.submissionId),
                channelColumn("text", TEXT_NOT_MADE, message.submissionId),
              ]}
            />
            <div className="mt-2 text-sm text-slate-700">
              Automation webhook:{" "}
              <DeliveryStatus
                state={message.webhook}
                unmade={WEBHOOK_NOT_MADE}
                submissionId={message.submissionId}
                retryLabel="Retry the webhook"
              />
            </div>
          </article>
        </li>
      ))}
    </ol>
  );
}
