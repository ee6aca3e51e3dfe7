import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { averageRating } from "./average";

/**
 * The rule written another way: whole hundredths of the mean, halves rounded up, in integer arithmetic
 * only, then printed with two decimals.
 */
function referenceAverage(answers: readonly unknown[]): string {
  const counted = answers.flatMap((answer) =>
    typeof answer === "string" && ["1", "2", "3", "4", "5"].includes(answer) ? [Number.parseInt(answer, 10)] : [],
  );
  if (counted.length === 0) return "N/A";
  const sum = counted.reduce((total, rating) => total + rating, 0);
  const hundredths = Math.floor((sum * 200 + counted.length) / (2 * counted.length));
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
}

const answer = fc.oneof(
  fc.constantFrom("1", "2", "3", "4", "5", "NE", ""),
  // What a tampered post or an old record might hold: never counted.
  fc.constantFrom("0", "6", "1.5", " 3", "3 ", "ne", "04"),
  fc.string(),
  fc.integer({ min: -2, max: 7 }),
  fc.constant(undefined),
  fc.constant(null),
);

describe("the average rating", () => {
  it("counts only the answers 1 to 5, to 2 decimals, or N/A when none count", () => {
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 400 }), (answers) => {
        expect(averageRating(answers)).toBe(referenceAverage(answers));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads as people expect on the examples of the spec", () => {
    expect(averageRating(["5", "4", "NE", ""])).toBe("4.50");
    expect(averageRating(["NE", "", "NE"])).toBe("N/A");
    expect(averageRating([])).toBe("N/A");
    expect(averageRating(["1", "2", "2"])).toBe("1.67");
    // 17 / 8 = 2.125 exactly: rounded half up, not down by a binary fraction.
    expect(averageRating(["3", "3", "3", "2", "2", "2", "1", "1"])).toBe("2.13");
    expect(averageRating(["3", 4, "5"])).toBe("4.00");
  });
});
