import type { FormActionResult, FormReply } from "~/forms/action-result";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import type { MultipartBody } from "~/outbox/multipart-body";
import type { Rating } from "./ratings";
import { peerReviewFields, peerReviewSchema } from "./schema";

export const PEER_REVIEW_STATUS = { received: "Received", filed: "Filed" } as const;

/** The file field the server-made PDF is stored under, and the webhook's part that carries it. */
export const PEER_REVIEW_PDF_FIELD = "pdf";

/**
 * What is stored of a review: the answers as one list of fifteen in the statements' order ("" where a
 * statement was not rated, as the original sent it), and the average.
 */
export type PeerReview = {
  reviewFor: string;
  date: string;
  answers: Array<Rating | "">;
  average: string;
  /** The reviewer as senderKey gives them for this person: counted, never named (reviews before it have none). */
  reviewerKey?: string;
};

/** The peer review questionnaire at /admin/quick-links/peer-review. */
export const peerReviewForm = defineForm({
  type: "peer-review",
  label: "Peer review",
  referencePrefix: "PRV",
  audience: "staff",
  statuses: [PEER_REVIEW_STATUS.received, PEER_REVIEW_STATUS.filed],
  schema: peerReviewSchema,
  fields: peerReviewFields,
  // The person reviewed, never the reviewer.
  contact: (review: PeerReview) => ({ name: review.reviewFor, email: "", phone: "" }),
  // Nothing stored says who wrote a review (its reviewerKey counts reviewers without naming them). Only admins
  // read them one by one; the report shows only averages.
  anonymous: true,
  readableBy: "admin",
  maxBodyBytes: 64 * 1024,
  messages: formMessages({
    missing: "Please fill in the name, the date and a rating for every statement.",
    success: "Your peer review has been submitted. Its PDF is saved to your device.",
    failed: "We could not save your peer review just now. Your answers are still here: please try again.",
    offline:
      "The connection was lost, so your peer review was not sent. Your answers are still here: send it again when you are back online.",
    unreachable:
      "We couldn't reach our server, so we could not confirm that your peer review was saved. Your answers are still here: sending again is safe, it will not be saved twice.",
  }),
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_PEER_REVIEW_URL",
      receives: "peer reviews",
      format: "multipart",
      // The original's multipart body (docs/spec.md §7): the answers as JSON text, the PDF as a file.
      body: (review, stored): MultipartBody => ({
        parts: [
          { name: "reviewFor", value: review.reviewFor },
          { name: "date", value: review.date },
          { name: "answers", value: JSON.stringify(review.answers) },
          { name: "average", value: review.average },
          { name: PEER_REVIEW_PDF_FIELD, storedFiles: true },
          { name: "submittedAt", value: stored.submittedAt },
        ],
      }),
    },
  ],
});

/** On success the page downloads the stored PDF from this address. */
export type PeerReviewActionResult = FormActionResult<{ pdfUrl: string; result: FormReply }>;
