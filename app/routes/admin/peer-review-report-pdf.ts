import { downloadPeerReviewReport } from "~/features/peer-review/load-peer-review-report.server";
import type { Route } from "./+types/peer-review-report-pdf";

export function loader({ request, context }: Route.LoaderArgs) {
  return downloadPeerReviewReport(request, context);
}
