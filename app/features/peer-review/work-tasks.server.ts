import { defineWorkTasks } from "~/services/work-pool/work-task";
import { peerReviewPdf } from "./peer-review-pdf.server";
import { peerReviewReportPdf } from "./peer-review-report-pdf.server";

export const workTasks = defineWorkTasks({ peerReviewPdf, peerReviewReportPdf });
