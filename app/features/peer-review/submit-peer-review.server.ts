import type { AppLoadContext } from "react-router";
import { submitForm } from "~/forms/submit-form.server";
import { fileGrant, senderKey } from "~/forms/submitter-keys.server";
import { inWorker } from "~/services/work-pool/work-pool.server";
import { averageRating } from "./average";
import { PEER_REVIEW_PDF_FIELD, type PeerReview, peerReviewForm } from "./definition";
import { peerReviewFileName } from "./file-name";
import { personKey } from "./peer-review-report";
import type { Rating } from "./ratings";
import type { PeerReviewAnswers } from "./schema";
import { PEER_REVIEW_STATEMENTS, statementFieldName } from "./statements";
import { workTasks } from "./work-tasks.server";

function storedReview(answers: PeerReviewAnswers, reviewerKey: string): PeerReview {
  const byField = answers as Record<string, Rating | undefined>;
  const ratings = PEER_REVIEW_STATEMENTS.map((_statement, index) => byField[statementFieldName(index)] ?? "");
  return {
    reviewFor: answers.reviewFor,
    date: answers.date,
    answers: ratings,
    average: averageRating(ratings),
    reviewerKey,
  };
}

/**
 * The questionnaire's action: the server builds the PDF, stores it with the review and queues the webhook.
 * The review is stored without its reviewer (the form is anonymous), with a reviewer key that tells reviewers
 * of one person apart without naming them. The page then downloads the stored PDF through a link that carries
 * a grant for its sender.
 */
export function submitPeerReview(request: Request, context: AppLoadContext) {
  return submitForm(request, context, peerReviewForm, {
    payload: (answers, context, staff) =>
      storedReview(answers, senderKey(context.config.SESSION_SECRET, personKey(answers.reviewFor), staff?.id ?? 0)),
    document: async (review) => [
      {
        fieldName: PEER_REVIEW_PDF_FIELD,
        fileName: peerReviewFileName(review.reviewFor),
        contentType: "application/pdf",
        content: await inWorker(context.config, workTasks.peerReviewPdf, review),
      },
    ],
    success: ({ stored, staff, reply }) => {
      const pdf = stored.files.find((file) => file.fieldName === PEER_REVIEW_PDF_FIELD);
      if (!pdf) throw new Error("the peer review was stored without its PDF");
      const grant = fileGrant(context.config.SESSION_SECRET, {
        submissionId: stored.id,
        fileId: pdf.id,
        userId: staff?.id ?? 0,
      });
      const pdfUrl = `/admin/inbox/${stored.id}/files/${pdf.id}?grant=${encodeURIComponent(grant)}`;
      return { pdfUrl, result: reply({ resetForm: true }) };
    },
  });
}
