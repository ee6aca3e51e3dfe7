import { formatStaffTime } from "~/components/staff/format-time";
import { formatFileSize } from "./format-size";
import type { SubmissionDetail } from "./submission-detail.server";

const termClass = "text-sm font-semibold text-slate-600";
const detailClass = "break-words text-lg text-slate-900";

/** Where the submission stands: reference, type, time, status, assignee and the spam flag. */
export function SubmissionSummary({ submission }: { submission: SubmissionDetail["submission"] }) {
  const facts: Array<[string, string]> = [
    ["Reference", submission.reference],
    ["Type", submission.typeLabel],
    ["Received", formatStaffTime(submission.createdAt)],
    ["Status", `${submission.status} (since ${formatStaffTime(submission.statusChangedAt)})`],
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
    <section aria-labelledby="fields-heading" className="mt-10">
      <h2 id="fields-heading" className="text-xl font-bold text-brand-900">
        What was sent
      </h2>
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
    </section>
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
    <section aria-labelledby="files-heading" className="mt-10">
      <h2 id="files-heading" className="text-xl font-bold text-brand-900">
        Attachments
      </h2>
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
    </section>
  );
}
