import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type PeerReviewActionResult, peerReviewForm } from "./definition";

/** Unreachable, the reviewer keeps every answer and can send again. */
export const peerReviewClientAction = clientActionFallingBackTo<PeerReviewActionResult>(peerReviewForm.messages);
