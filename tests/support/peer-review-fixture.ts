import { PEER_REVIEW_STATEMENTS } from "../../app/features/peer-review/statements";

/** The questionnaire's fields as a browser posts them: a name, a date and one rating per statement. */
export function peerReviewFields(
  reviewFor: string,
  ratings: readonly string[],
  date = "2026-03-05",
): Record<string, string> {
  return {
    reviewFor,
    date,
    ...Object.fromEntries(PEER_REVIEW_STATEMENTS.map((_statement, index) => [`q${index + 1}`, ratings[index] ?? ""])),
  };
}

/** Fifteen ratings, the same one for every statement. */
export const allRated = (rating: string) => PEER_REVIEW_STATEMENTS.map(() => rating);
