import type { AppLoadContext } from "react-router";
import { submitForm } from "~/forms/submit-form.server";
import { averageRating } from "./average";
import { PEER_REVIEW_PDF_FIELD, type PeerReview, peerReviewForm } from "./definition";
import { PEER_REVIEW_STATEMENTS, statementFieldName } from "./fields";
import { peerReviewFileName } from "./file-name";
import { peerReviewPdf } from "./peer-review-pdf.server";
import type { Rating } from "./ratings";
import type { PeerReviewAnswers } from "./schema";

function storedReview(answers: PeerReviewAnswers): PeerReview {
  const byField = answers as Record<string, Rating | undefined>;
  const ratings = PEER_REVIEW_STATEMENTS.map((_statement, index) => byField[statementFieldName(index)] ?? "");
  return { reviewFor: answers.reviewFor, date: answers.date, answers: ratings, average: averageRating(ratings) };
}

/**
 * The questionnaire's action: the server builds the PDF, stores it with the review and queues the webhook.
 * The page then downloads the stored PDF from the file route, which lets its submitter have it.
 */
export function submitPeerReview(request: Request, context: AppLoadContext) {
  return submitForm(request, context, peerReviewForm, {
    payload: storedReview,
    document: async (review) => [
      {
        fieldName: PEER_REVIEW_PDF_FIELD,
        fileName: peerReviewFileName(review.reviewFor),
        contentType: "application/pdf",
        content: await peerReviewPdf(review),
      },
    ],
    success: ({ stored, reply }) => {
      const pdf = stored.files.find((file) => file.fieldName === PEER_REVIEW_PDF_FIELD);
      if (!pdf) throw new Error("the peer review was stored without its PDF");
      return { pdfUrl: `/admin/inbox/${stored.id}/files/${pdf.id}`, result: reply({ resetForm: true }) };
    },
  });
}
