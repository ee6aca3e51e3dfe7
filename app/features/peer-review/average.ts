/** What the average reads when no answer counts. */
export const NO_AVERAGE = "N/A";

/** An answer that counts toward the average: a whole number from 1 to 5, as the form sends it. */
const COUNTED = /^[1-5]$/;

/** The answers that count toward an average, as numbers: NE, blanks and anything else are left out. */
export function countedRatings(answers: readonly unknown[]): number[] {
  return answers.filter((answer) => typeof answer === "string" && COUNTED.test(answer)).map(Number);
}

/**
 * The average of the answers 1 to 5 (NE and unanswered left out) to 2 decimals, or N/A when none count: the
 * same rule in the browser, as one answers, and on the server, for the PDF, the webhook and the report.
 * Rounded from whole hundredths (halves up), so no binary fraction tips a result such as 2.125.
 */
export function averageRating(answers: readonly unknown[]): string {
  const counted = countedRatings(answers);
  if (counted.length === 0) return NO_AVERAGE;
  const sum = counted.reduce((total, rating) => total + rating, 0);
  // sum * 100 / count is a correctly rounded division of whole numbers: a true half stays exactly a half.
  return (Math.round((sum * 100) / counted.length) / 100).toFixed(2);
}
