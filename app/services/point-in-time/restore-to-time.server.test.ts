import { describe, expect, it } from "vitest";
import { PointInTimeRefusal } from "./base-backup.server";
import { describeTime, parseRecoveryTarget } from "./restore-to-time.server";

describe("the time to restore to", () => {
  it("is New York's wall clock without an offset, in winter and in summer", () => {
    expect(parseRecoveryTarget("2026-11-29 14:05:00")).toEqual(new Date("2026-11-29T19:05:00.000Z"));
    expect(parseRecoveryTarget("2026-07-04 09:30")).toEqual(new Date("2026-07-04T13:30:00.000Z"));
    expect(parseRecoveryTarget("2026-11-29T14:05:00.250")).toEqual(new Date("2026-11-29T19:05:00.250Z"));
  });

  it("is the instant itself with an offset", () => {
    expect(parseRecoveryTarget("2026-11-29T19:05:00Z")).toEqual(new Date("2026-11-29T19:05:00.000Z"));
    expect(parseRecoveryTarget("2026-11-29 14:05:00-05:00")).toEqual(new Date("2026-11-29T19:05:00.000Z"));
  });

  it("is everything archived with latest", () => {
    expect(parseRecoveryTarget("latest")).toBe("latest");
    expect(describeTime("latest")).toBe("the end of the archive");
  });

  it("is said both ways, so the operator sees which moment was meant", () => {
    expect(describeTime(new Date("2026-11-29T19:05:00Z"))).toBe(
      "2026-11-29 14:05:00.000 EST (2026-11-29T19:05:00.000Z)",
    );
  });

  it.each(["yesterday", "2026-11-29", "2026-13-01 10:00", ""])("refuses %j, saying how to write one", (text) => {
    expect(() => parseRecoveryTarget(text)).toThrow(PointInTimeRefusal);
    expect(() => parseRecoveryTarget(text)).toThrow(/is not a time: write "2026-11-29 14:05:00" \(New York time\)/);
  });
});
