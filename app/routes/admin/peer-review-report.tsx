import { Link } from "react-router";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadPeerReviewReport } from "~/features/peer-review/load-peer-review-report.server";
import { PeerReviewReportView } from "~/features/peer-review/peer-review-report-view";
import type { Route } from "./+types/peer-review-report";

export const meta: Route.MetaFunction = () => staffPageMeta("Peer review report");

export const loader = ({ context }: Route.LoaderArgs) => loadPeerReviewReport(context);

export default function PeerReviewReport({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Peer review report"
      intro={
        <>
          <p>
            Every person reviewed, with the averages of all their reviews once {loaderData.minResponses} or more are in.
            Averages leave out NE; no reviewer is named.
          </p>
          <Link to="/admin/quick-links/peer-review" className="text-brand-800 underline">
            Fill in a peer review
          </Link>
        </>
      }
    >
      <PeerReviewReportView people={loaderData.people} minResponses={loaderData.minResponses} />
    </StaffPage>
  );
}
