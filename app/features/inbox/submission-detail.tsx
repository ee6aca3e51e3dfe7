import { StaffSection } from "~/components/staff/staff-section";
import type { SubmissionEventKind } from "~/server/db/schema.server";
import { formatFileSize } from "./format-size";
import type { SubmissionDetail } from "./submission-detail.server";

const termClass = "text-sm font-semibold text-slate-600";
const detailClass = "break-words text-lg text-slate-900";

/** Where the submission stands: reference, type, time, status, assignee and the spam flag. */
export function SubmissionSummary({ submission }: { submission: SubmissionDetail["submission"] }) {
  const facts: Array<[string, string]> = [
    ["Reference", submission.reference],
    ["Type", submission.typeLabel],
    ["Received", submission.received],
    ["Status", `${submission.status} (since ${submission.statusSince})`],
    ["Assignee", submission.assigneeUsername ?? "No one"],
    ["Spam", submission.isSpam ? `Yes: ${submission.spamReason ?? "no reason given"}` : "No"],
    ...(submission.suspiciousReason ? [["Suspicious", submission.suspiciousReason] as [string, string]] : []),
  ];
  return (
    <dl className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
      {facts.map(([term, detail]) => (
        <div key={term}>
          <dt className={termClass}>{term}</dt>
          <dd className={detailClass}>{detail}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Every field with the label the form used; values are text, whatever they contain. */
export function SubmissionFields({ fields }: { fields: SubmissionDetail["fields"] }) {
  return (
    <StaffSection headingId="fields-heading" title="What was sent" className="mt-10">
      <dl className="mt-4 divide-y divide-slate-200 border-y border-slate-200">
        {fields.map((field) => (
          <div key={field.label} className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
            <dt className="font-semibold text-slate-700">{field.label}</dt>
            <dd className="whitespace-pre-wrap break-words text-slate-900 sm:col-span-2">
              {field.value === "" ? <span className="text-slate-600">(not given)</span> : field.value}
            </dd>
          </div>
        ))}
      </dl>
    </StaffSection>
  );
}

export function SubmissionAttachments({
  submissionId,
  files,
}: {
  submissionId: number;
  files: SubmissionDetail["files"];
}) {
  return (
    <StaffSection headingId="files-heading" title="Attachments" className="mt-10">
      {files.length === 0 ? (
        <p className="mt-2 text-slate-700">None.</p>
      ) : (
        <ul className="mt-4 space-y-2">
          {files.map((file) => (
            <li key={file.id} className="break-words">
              <a
                href={`/admin/inbox/${submissionId}/files/${file.id}`}
                className="font-medium text-brand-800 underline"
                download
              >
                Download {file.fileName}
              </a>{" "}
              <span className="text-slate-700">
                ({formatFileSize(file.sizeBytes)}
                {file.sentAs ? `, sent as “${file.sentAs}”` : ""})
              </span>
            </li>
          ))}
        </ul>
      )}
    </StaffSection>
  );
}

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
    <StaffSection headingId="notes-heading" title="Notes" className="mt-10">
      {notes.length === 0 ? (
        <p className="mt-2 text-slate-700">No notes yet.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {notes.map((note) => (
            <li key={note.id} className="rounded-lg border border-slate-300 p-3">
              <p className="text-sm text-slate-700">
                {note.author ?? "A removed user"}, {note.written}
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words text-slate-900">{note.body}</p>
            </li>
          ))}
        </ul>
      )}
    </StaffSection>
  );
}

/** Every change staff made, oldest first: who, what, from and to, and when. */
export function ChangeHistory({ events }: { events: SubmissionDetail["events"] }) {
  return (
    <StaffSection headingId="history-heading" title="Change history" className="mt-10">
      {events.length === 0 ? (
        <p className="mt-2 text-slate-700">No changes yet.</p>
      ) : (
        <ol className="mt-4 space-y-2">
          {events.map((event) => (
            <li key={event.id} className="break-words">
              <span className="text-sm text-slate-700">{event.at}</span>{" "}
              <strong>{event.kind === "delivery-withheld" ? "The website" : (event.actor ?? "A removed user")}</strong>{" "}
              {describeEvent(event)}
            </li>
          ))}
        </ol>
      )}
    </StaffSection>
  );
}
