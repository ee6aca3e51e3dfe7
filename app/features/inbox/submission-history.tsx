import { formatStaffTime } from "~/components/staff/format-time";
import type { SubmissionEventKind } from "~/server/db/schema.server";
import type { SubmissionDetail } from "./submission-detail.server";

type SubmissionEvent = SubmissionDetail["events"][number];

const shown = (value: string | null) => value ?? "no one";

/** One line of the change history, in words: what changed, from what to what. */
function describeEvent(event: SubmissionEvent): string {
  const descriptions: Record<SubmissionEventKind, () => string> = {
    status: () => `changed the status from ${event.fromValue} to ${event.toValue}`,
    assignee: () => `changed the assignee from ${shown(event.fromValue)} to ${shown(event.toValue)}`,
    spam: () => `marked it as ${event.toValue} (it was ${event.fromValue})`,
    note: () => "added a note",
    replay: () => `replayed the delivery to ${event.fromValue} (webhook-id ${event.toValue})`,
    "delivery-withheld": () =>
      `did not send ${event.fromValue} to ${event.toValue}: that address had its limit of these for the day`,
  };
  return descriptions[event.kind]();
}

/** The internal notes, oldest first, with author and time; each note is text, line breaks kept. */
export function SubmissionNotes({ notes }: { notes: SubmissionDetail["notes"] }) {
  return (
    <section aria-labelledby="notes-heading" className="mt-10">
      <h2 id="notes-heading" className="text-xl font-bold text-brand-900">
        Notes
      </h2>
      {notes.length === 0 ? (
        <p className="mt-2 text-slate-700">No notes yet.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {notes.map((note) => (
            <li key={note.id} className="rounded-lg border border-slate-300 p-3">
              <p className="text-sm text-slate-700">
                {note.author ?? "A removed user"}, {formatStaffTime(note.createdAt)}
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words text-slate-900">{note.body}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every change staff made, oldest first: who, what, from and to, and when. */
export function ChangeHistory({ events }: { events: SubmissionDetail["events"] }) {
  return (
    <section aria-labelledby="history-heading" className="mt-10">
      <h2 id="history-heading" className="text-xl font-bold text-brand-900">
        Change history
      </h2>
      {events.length === 0 ? (
        <p className="mt-2 text-slate-700">No changes yet.</p>
      ) : (
        <ol className="mt-4 space-y-2">
          {events.map((event) => (
            <li key={event.id} className="break-words">
              <span className="text-sm text-slate-700">{formatStaffTime(event.createdAt)}</span>{" "}
              <strong>{event.kind === "delivery-withheld" ? "The website" : (event.actor ?? "A removed user")}</strong>{" "}
              {describeEvent(event)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
