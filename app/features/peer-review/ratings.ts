/** The answers a statement takes: how often, 1 to 5, or NE when the reviewer has no experience of it. */
export const RATINGS = ["1", "2", "3", "4", "5", "NE"] as const;

export type Rating = (typeof RATINGS)[number];

export const RATING_MEANINGS: Record<Rating, string> = {
  "1": "Never",
  "2": "Occasionally",
  "3": "Sometimes",
  "4": "Most of the Time",
  "5": "Always",
  NE: "No Experience",
};

/** The legend as the PDF prints it (docs/spec.md §9). */
export const PRINTED_LEGEND = RATINGS.map((rating) => `${rating}=${RATING_MEANINGS[rating]}`).join(", ");
