import { describeFormContract } from "#tests/form-contract";
import { allRated } from "#tests/peer-review-fixture";
import { peerReviewForm } from "./definition";

describeFormContract(peerReviewForm, {
  payload: { reviewFor: "Nguyễn Văn An", date: "2026-03-05", answers: [...allRated("4")], average: "4.00" },
  webhookKeys: { WEBHOOK_PEER_REVIEW_URL: ["reviewFor", "date", "answers", "average", "pdf", "submittedAt"] },
});
