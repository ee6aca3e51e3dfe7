import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.server";

describe("parseDuration", () => {
  it("reads each unit, and a bare number as milliseconds", () => {
    expect(parseDuration("0")).toBe(0);
    expect(parseDuration("250")).toBe(250);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("5s")).toBe(5_000);
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("0h")).toBe(0);
    expect(parseDuration("7d")).toBe(604_800_000);
  });

  it.each([
    "",
    " ",
    "5 s",
    " 5s",
    "5s ",
    "5s\n",
    "-5s",
    "1.5s",
    "5S",
    "s",
    "ms",
    "five",
    "5sec",
    "0x10",
    "1e3",
    "5s,5m",
  ])("rejects %j", (value) => {
    expect(() => parseDuration(value)).toThrow(/not a duration/);
  });
});
