import { Fragment } from "react";
import { Link } from "react-router";
import { ContactActions } from "~/components/staff/contact-actions";
import { StaffSection } from "~/components/staff/staff-section";
import { formatFileSize } from "./format-size";
import type { SubmissionDetail } from "./submission-detail.server";

/** Who wrote in and what they asked, with one-tap Call, Text and Email: the top of a lead's page. */
export function LeadHeadline({ submission, backTo }: { submission: SubmissionDetail["submission"]; backTo: string }) {
  return (
    <>
      <p className="text-slate-700">
        {submission.typeLabel} <span className="font-mono">{submission.reference}</span>
      </p>
      {submission.place ? <p className="text-lg text-slate-900">{submission.place}</p> : null}
      {submission.asked ? <p className="break-words text-slate-900">{submission.asked}</p> : null}
      <ContactActions contact={submission.contact} size="large" />
      <Link to={backTo} className="mt-2 inline-flex min-h-11 items-center font-medium text-brand-800 underline">
        Back to the inbox
      </Link>
    </>
  );
}

/** Where the lead stands: status, who has it, when it came, and the spam flag. */
export function SubmissionSummary({ submission }: { submission: SubmissionDetail["submission"] }) {
  const facts: Array<[string, string]> = [
    ["Status", `${submission.status} (since ${submission.statusSince})`],
    ["Assigned to", submission.assigneeName ?? "No one"],
    ["Received", submission.received],
    ...(submission.isSpam ? [["Spam", submission.spamReason ?? "no reason given"] as [string, string]] : []),
    ...(submission.suspiciousReason ? [["Suspicious", submission.suspiciousReason] as [string, string]] : []),
  ];
  return (
    <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-xl bg-slate-50 p-3 sm:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
      {facts.map(([term, detail]) => (
        <Fragment key={term}>
          <dt className="text-sm font-semibold text-slate-600">{term}</dt>
          <dd className="break-words text-slate-900">{detail}</dd>
        </Fragment>
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
              {event.says}
            </li>
          ))}
        </ol>
      )}
    </StaffSection>
  );
}
