import { describe, expect, it } from "vitest";
import type { InboxFilters } from "./inbox-filters.server";
import { describeMatches, describePage } from "./load-inbox.server";

const filters = (changes: Partial<InboxFilters> = {}): InboxFilters => ({ spam: "no", page: 1, ...changes });
const exactly = (count: number) => ({ count, beyondCap: false });

describe("the count over the inbox's results", () => {
  it("says how many leads a search found, in words that fit the number", () => {
    const search = filters({ q: "reyes" });
    expect(describeMatches(exactly(3), search, "Reyes")).toBe("3 leads match “Reyes”");
    expect(describeMatches(exactly(1), search, "Reyes")).toBe("1 lead matches “Reyes”");
    expect(describeMatches(exactly(0), search, "Reyes")).toBe("No lead matches “Reyes”.");
    expect(describeMatches(exactly(312), search, "Reyes")).toBe("312 leads match “Reyes”");
  });

  it("names the filters when they narrow the list, with or without a search", () => {
    expect(describeMatches(exactly(12), filters({ delivery: "failed" }), undefined)).toBe("12 match these filters");
    expect(describeMatches(exactly(1), filters({ spam: "yes" }), undefined)).toBe("1 matches these filters");
    expect(describeMatches(exactly(2), filters({ type: "estimate", q: "reyes" }), "Reyes")).toBe(
      "2 match “Reyes” and these filters",
    );
    expect(describeMatches(exactly(0), filters({ status: "New" }), undefined)).toBe("Nothing matches these filters.");
  });

  it("counts the whole inbox, up to its cap", () => {
    expect(describeMatches(exactly(288), filters(), undefined)).toBe("288 submissions, newest first");
    expect(describeMatches({ count: 10_000, beyondCap: true }, filters(), undefined)).toBe(
      "More than 10,000 submissions, newest first",
    );
  });
});

describe("the pager's words", () => {
  it("say which of how many are shown", () => {
    expect(describePage(1, 50, exactly(312))).toBe("1–50 of 312");
    expect(describePage(7, 12, exactly(312))).toBe("301–312 of 312");
    expect(describePage(3, 50, { count: 10_000, beyondCap: true })).toBe("101–150 of more than 10,000");
  });
});
