import { averageRating, countedRatings } from "./average";
import { RATINGS, type Rating } from "./ratings";
import { PEER_REVIEW_STATEMENTS } from "./statements";

/** The name typed into "Peer Review for" as the report groups it: trimmed, one space between words, any case. */
export function personKey(reviewFor: string): string {
  return reviewFor.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("en-US");
}

export type StatementSummary = { statement: string; average: string; answers: number };

/** A person with enough reviews: the averages and the spread, never anything of one review alone. */
export type PersonSummary =
  | { key: string; name: string; reviews: number; enough: false }
  | {
      key: string;
      name: string;
      reviews: number;
      enough: true;
      statements: StatementSummary[];
      overall: string;
      spread: Record<Rating, number>;
    };

/** What the report reads of one stored review, oldest first: the person's name as typed and the fifteen answers. */
/** `reviewer` tells one reviewer's reviews of a person apart from another's; a review without one stands alone. */
export type ReviewAnswers = { reviewFor: string; answers: readonly unknown[]; reviewer?: string };

/** Each reviewer's latest review of the person (reviews come oldest first): a second review replaces the first. */
function latestPerReviewer(reviews: readonly ReviewAnswers[]): ReviewAnswers[] {
  const byReviewer = new Map<unknown, ReviewAnswers>();
  for (const review of reviews) byReviewer.set(review.reviewer ?? review, review);
  return [...byReviewer.values()];
}

/** The spelling most reviews used (the earliest on a tie): reviews come oldest first. */
function commonSpelling(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const spelling = name.trim().replace(/\s+/g, " ");
    counts.set(spelling, (counts.get(spelling) ?? 0) + 1);
  }
  // A stable sort keeps the earliest of equally common spellings first.
  return [...counts].sort(([, countA], [, countB]) => countB - countA)[0]?.[0] ?? "";
}

/**
 * The report across reviewers: one entry per person reviewed, by name. From `minResponses` reviews up it
 * gives each statement's average (NE left out) with the number of answers behind it, the overall average and
 * how many of each rating were given; below that only the count, so that no review can be read back.
 */
export function summarisePeerReviews(reviews: readonly ReviewAnswers[], minResponses: number): PersonSummary[] {
  const byPerson = new Map<string, ReviewAnswers[]>();
  for (const review of reviews) {
    const key = personKey(review.reviewFor);
    if (key === "") continue;
    byPerson.set(key, [...(byPerson.get(key) ?? []), review]);
  }
  return [...byPerson]
    .map(([key, reviewsOfPerson]): PersonSummary => {
      // Counted and averaged by reviewer: one person sending several reviews can neither reach the minimum
      // alone nor outweigh the others.
      const own = latestPerReviewer(reviewsOfPerson);
      const name = commonSpelling(reviewsOfPerson.map((review) => review.reviewFor));
      if (own.length < minResponses) return { key, name, reviews: own.length, enough: false };
      const statements = PEER_REVIEW_STATEMENTS.map((statement, index) => {
        const answers = own.map((review) => review.answers[index]);
        return { statement, average: averageRating(answers), answers: countedRatings(answers).length };
      });
      const all = own.flatMap((review) => review.answers.slice(0, PEER_REVIEW_STATEMENTS.length));
      const spread = Object.fromEntries(
        RATINGS.map((rating) => [rating, all.filter((answer) => answer === rating).length]),
      ) as Record<Rating, number>;
      return { key, name, reviews: own.length, enough: true, statements, overall: averageRating(all), spread };
    })
    .sort((a, b) => a.name.localeCompare(b.name, "en-US", { sensitivity: "base" }));
}
