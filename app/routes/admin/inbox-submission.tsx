import { Link } from "react-router";
import { touchLinkClass } from "~/components/forms/field-look";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { DeliveryHistory } from "~/features/inbox/delivery-history";
import { LeadWorkflowForms } from "~/features/inbox/lead-workflow-forms";
import {
  ChangeHistory,
  SubmissionAttachments,
  SubmissionFields,
  SubmissionNotes,
  SubmissionSummary,
} from "~/features/inbox/submission-detail";
import { loadSubmissionPage, submissionPageAction } from "~/features/inbox/submission-page.server";
import type { Route } from "./+types/inbox-submission";

export const meta: Route.MetaFunction = ({ data }) =>
  staffPageMeta(data ? `${data.submission.typeLabel} ${data.submission.reference}` : "Submission");

export const loader = ({ context, params }: Route.LoaderArgs) => loadSubmissionPage(context, params.submissionId);

export const action = ({ request, context, params }: Route.ActionArgs) =>
  submissionPageAction(request, context, params.submissionId);

export default function InboxSubmission({ loaderData }: Route.ComponentProps) {
  const { submission } = loaderData;
  return (
    <StaffPage
      title={`${submission.typeLabel} ${submission.reference}`}
      intro={
        <Link to="/admin/inbox" className={touchLinkClass}>
          Back to the inbox
        </Link>
      }
    >
      <SubmissionSummary submission={submission} />
      <LeadWorkflowForms detail={loaderData} />
      <SubmissionFields fields={loaderData.fields} />
      <SubmissionAttachments submissionId={submission.id} files={loaderData.files} />
      <DeliveryHistory deliveries={loaderData.deliveries} />
      <SubmissionNotes notes={loaderData.notes} />
      <ChangeHistory events={loaderData.events} />
    </StaffPage>
  );
}
