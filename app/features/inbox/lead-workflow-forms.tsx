import { IntentForm } from "~/components/forms/intent-form";
import { SelectField } from "~/components/forms/select-field";
import { TextAreaField } from "~/components/forms/text-area-field";
import { StaffSection } from "~/components/staff/staff-section";
import { NOTE_MAX_LENGTH } from "./note-limits";
import type { SubmissionDetail } from "./submission-detail.server";

/** Status, assignee, a new note and the spam flag: the lead workflow, one small form each. */
export function LeadWorkflowForms({ detail }: { detail: SubmissionDetail }) {
  const { submission } = detail;
  return (
    <StaffSection headingId="workflow-heading" title="Handle it" className="mt-10">
      <div className="mt-4 grid gap-8 md:grid-cols-2">
        {/* The key resets the choice shown to the stored one after each change. */}
        <IntentForm key={`status-${submission.status}`} intent="status" label="Change status" busyLabel="Saving...">
          <SelectField
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
          <SelectField
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
          <TextAreaField label="Internal note" name="body" rows={3} required maxLength={NOTE_MAX_LENGTH} />
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
    </StaffSection>
  );
}
