import { createPdfDocument, mm, toBuffer } from "~/services/pdf/pdf-document.server";
import { heading, lineWithRightText, paragraph, table } from "~/services/pdf/pdf-layout.server";
import type { PeerReview } from "./definition";
import { PRINTED_LEGEND } from "./ratings";
import { PEER_REVIEW_STATEMENTS } from "./statements";

export const PEER_REVIEW_PDF_TITLE = "Peer Review Questionnaire";
const UNANSWERED = "-";

/**
 * The review as the original printed it (docs/spec.md §9), in millimetres on A4: the title at 18 pt, the person and
 * the date at 12 pt (`Date: {date}`, the date as entered), the legend at 11 pt, then from 45 mm down the table
 * of # (10 mm), Question (110 mm) and Answer (30 mm, centred) under a blue header, and the average below it.
 */
export async function peerReviewPdf(review: PeerReview): Promise<Uint8Array<ArrayBuffer>> {
  const doc = createPdfDocument({ title: `${PEER_REVIEW_PDF_TITLE}: ${review.reviewFor}` });
  doc.y = mm(12);
  heading(doc, PEER_REVIEW_PDF_TITLE, 18, "center");
  doc.y = mm(22);
  lineWithRightText(doc, `Peer Review for: ${review.reviewFor}`, `Date: ${review.date}`, 12);
  doc.y = mm(30);
  paragraph(doc, PRINTED_LEGEND, 11);
  table(doc, {
    x: doc.page.margins.left,
    y: mm(45),
    columns: [
      { header: "#", width: mm(10), align: "center" },
      { header: "Question", width: mm(110) },
      { header: "Answer", width: mm(30), align: "center" },
    ],
    rows: PEER_REVIEW_STATEMENTS.map((statement, index) => [
      String(index + 1),
      statement,
      review.answers[index] || UNANSWERED,
    ]),
  });
  doc.moveDown(0.5);
  heading(doc, `Average Score: ${review.average}`, 12);
  return toBuffer(doc);
}
