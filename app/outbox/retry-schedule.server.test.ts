import { describe, expect, it } from "vitest";
import { nextAttemptDelay } from "./retry-schedule.server";

const DEFAULT_SCHEDULE = ["0", "5s", "5m", "30m", "2h", "5h", "10h", "10h"];

describe("nextAttemptDelay", () => {
  it("walks the default schedule: the first attempt at once, then 5 s, 5 m, … and nothing after 8 attempts", () => {
    const delays = Array.from({ length: 10 }, (_, attemptsMade) => nextAttemptDelay(DEFAULT_SCHEDULE, attemptsMade));
    expect(delays).toEqual([
      0,
      5_000,
      300_000,
      1_800_000,
      7_200_000,
      18_000_000,
      36_000_000,
      36_000_000,
      undefined,
      undefined,
    ]);
  });

  it("gives up at once with a schedule of a single try", () => {
    expect(nextAttemptDelay(["0"], 0)).toBe(0);
    expect(nextAttemptDelay(["0"], 1)).toBeUndefined();
  });

  it("throws on a malformed entry when that entry is reached, not before", () => {
    expect(nextAttemptDelay(["0", "soon"], 0)).toBe(0);
    expect(() => nextAttemptDelay(["0", "soon"], 1)).toThrow(/not a duration/);
  });
});
