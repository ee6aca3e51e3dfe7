import { IntentForm } from "~/components/forms/intent-form";
import { SelectField } from "~/components/forms/select-field";
import { TextAreaField } from "~/components/forms/text-area-field";
import { StaffSection } from "~/components/staff/staff-section";
import { NOTE_MAX_LENGTH } from "./note-limits";
import type { SubmissionDetail } from "./submission-detail.server";

/**
 * The lead workflow: status, assignee and a note saved together with one press (any one of them alone too),
 * and the spam flag apart, as it holds or sends the deliveries.
 */
export function LeadWorkflowForms({ detail }: { detail: SubmissionDetail }) {
  const { submission } = detail;
  return (
    <StaffSection headingId="workflow-heading" title="Handle it" className="mt-8">
      <div className="mt-4">
        <IntentForm intent="triage" label="Save" busyLabel="Saving...">
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Status"
              name="status"
              defaultValue={submission.status}
              options={detail.statuses.map((status) => ({ value: status, label: status }))}
            />
            <SelectField
              label="Assignee"
              name="assigneeId"
              defaultValue={submission.assigneeId === null ? "" : String(submission.assigneeId)}
              options={[
                { value: "", label: "No one" },
                ...detail.assignableStaff.map((user) => ({ value: String(user.id), label: user.name })),
              ]}
            />
          </div>
          {/* The key empties the note once it is saved; the choices above already show what was saved. */}
          <TextAreaField
            key={`note-${detail.notes.length}`}
            label="Internal note"
            name="note"
            rows={3}
            maxLength={NOTE_MAX_LENGTH}
            hint="Optional: saved with the status and assignee."
          />
        </IntentForm>
      </div>
      <div className="mt-6">
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
    </StaffSection>
  );
}
