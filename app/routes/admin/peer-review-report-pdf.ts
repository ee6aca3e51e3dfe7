import { downloadPeerReviewReport } from "~/features/peer-review/load-peer-review-report.server";
import type { Route } from "./+types/peer-review-report-pdf";

export const loader = ({ request, context }: Route.LoaderArgs) => downloadPeerReviewReport(request, context);
