import { Link } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { type PeerReviewActionResult, peerReviewForm } from "~/features/peer-review/definition";
import { PeerReviewForm } from "~/features/peer-review/peer-review-form";
import { reviewNameSuggestions } from "~/features/peer-review/review-names.server";
import { submitPeerReview } from "~/features/peer-review/submit-peer-review.server";
import { companyToday } from "~/forms/company-day";
import { formRoute } from "~/forms/form-route";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/peer-review";

export const meta: Route.MetaFunction = () => staffPageMeta("Peer Review Questionnaire");

export async function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  // Who opened the anonymous form is as telling as who sent it.
  context.keepClientOutOfLog();
  return {
    isAdmin: staff.role === "admin",
    names: await reviewNameSuggestions(context.db),
    today: companyToday(),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => submitPeerReview(request, context);

export const { clientAction, shouldRevalidate } = formRoute<PeerReviewActionResult>(peerReviewForm);

export default function PeerReview({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Peer Review Questionnaire"
      intro={
        <>
          <p>
            Your answers are compiled with other employees' answers into one report per person, and the person reviewed
            is not told who was asked. Rate how often each statement is true of them; choose NE where you have no
            experience of it.
          </p>
          {loaderData.isAdmin ? (
            <Link to="/admin/peer-review-report" className="text-brand-800 underline">
              See the peer review report
            </Link>
          ) : null}
        </>
      }
    >
      <PeerReviewForm names={loaderData.names} today={loaderData.today} />
    </StaffPage>
  );
}
