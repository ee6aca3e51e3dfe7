import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { DeliveryHistory } from "~/features/inbox/delivery-history";
import { LeadWorkflowForms } from "~/features/inbox/lead-workflow-forms";
import {
  ChangeHistory,
  LeadHeadline,
  SubmissionAttachments,
  SubmissionFields,
  SubmissionNotes,
  SubmissionSummary,
} from "~/features/inbox/submission-detail";
import { loadSubmissionPage, submissionPageAction } from "~/features/inbox/submission-page.server";
import type { Route } from "./+types/inbox-submission";

export const meta: Route.MetaFunction = ({ data }) =>
  staffPageMeta(data ? `${data.submission.typeLabel} ${data.submission.reference}` : "Submission");

export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  loadSubmissionPage(request, context, params.submissionId);

export const action = ({ request, context, params }: Route.ActionArgs) =>
  submissionPageAction(request, context, params.submissionId);

export default function InboxSubmission({ loaderData }: Route.ComponentProps) {
  const { submission } = loaderData;
  return (
    <StaffPage
      title={submission.contact.name || `${submission.typeLabel} ${submission.reference}`}
      intro={<LeadHeadline submission={submission} backTo={loaderData.backTo} />}
    >
      <SubmissionSummary submission={submission} />
      <LeadWorkflowForms detail={loaderData} />
      <SubmissionFields fields={loaderData.fields} />
      <SubmissionAttachments submissionId={submission.id} files={loaderData.files} />
      <DeliveryHistory deliveries={loaderData.deliveries} notSentTo={loaderData.notSentTo} />
      <SubmissionNotes notes={loaderData.notes} />
      <ChangeHistory events={loaderData.events} />
    </StaffPage>
  );
}
