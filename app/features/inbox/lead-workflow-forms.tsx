import { useId } from "react";
import { inputClass } from "~/features/forms/field-error";
import { IntentForm } from "./intent-form";
import { LabelledSelect } from "./labelled-select";
import { NOTE_MAX_LENGTH } from "./note-limits";
import type { SubmissionDetail } from "./submission-detail.server";

/** Status, assignee, a new note and the spam flag: the lead workflow, one small form each. */
export function LeadWorkflowForms({ detail }: { detail: SubmissionDetail }) {
  const { submission } = detail;
  const noteId = useId();
  return (
    <section aria-labelledby="workflow-heading" className="mt-10">
      <h2 id="workflow-heading" className="text-xl font-bold text-brand-900">
        Handle it
      </h2>
      <div className="mt-4 grid gap-8 md:grid-cols-2">
        {/* The key resets the choice shown to the stored one after each change. */}
        <IntentForm key={`status-${submission.status}`} intent="status" label="Change status" busyLabel="Saving...">
          <LabelledSelect
            label="Status"
            name="status"
            defaultValue={submission.status}
            options={detail.statuses.map((status) => ({ value: status, label: status }))}
          />
        </IntentForm>
        <IntentForm
          key={`assignee-${submission.assigneeId}`}
          intent="assignee"
          label="Set assignee"
          busyLabel="Saving..."
        >
          <LabelledSelect
            label="Assignee"
            name="assigneeId"
            defaultValue={submission.assigneeId === null ? "" : String(submission.assigneeId)}
            options={[
              { value: "", label: "No one" },
              ...detail.assignableStaff.map((user) => ({ value: String(user.id), label: user.username })),
            ]}
          />
        </IntentForm>
        <IntentForm key={`note-${detail.notes.length}`} intent="note" label="Add note" busyLabel="Adding...">
          <div>
            <label htmlFor={noteId} className="block font-medium text-slate-900">
              Internal note
            </label>
            <textarea id={noteId} name="body" rows={3} required maxLength={NOTE_MAX_LENGTH} className={inputClass} />
          </div>
        </IntentForm>
        <div>
          <p className="font-medium text-slate-900">
            {submission.isSpam ? "Marked as spam: nothing of it is sent." : "Not spam: its deliveries are sent."}
          </p>
          <div className="mt-3">
            {submission.isSpam ? (
              <IntentForm intent="not-spam" label="Mark as not spam" busyLabel="Saving..." />
            ) : (
              <IntentForm intent="spam" label="Mark as spam" busyLabel="Saving..." />
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
