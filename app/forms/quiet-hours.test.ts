import { describe, expect, it } from "vitest";
import { loadConfig } from "~/services/config.server";
import { isQuietTime } from "./quiet-hours";

/** A moment on the company's clock in winter (UTC-5). */
const newYorkTime = (time: string) => new Date(`2026-01-15T${time}:00-05:00`);

describe("quiet hours", () => {
  it("run past midnight when they end before they start, on New York's clock whatever the server's", () => {
    const { NEW_LEAD_QUIET_HOURS: quiet } = loadConfig({ NEW_LEAD_QUIET_HOURS: "20:00-07:00" });
    expect(quiet).toEqual({ from: 20 * 60, until: 7 * 60 });
    expect(["19:59", "07:00", "12:00"].map((time) => isQuietTime(quiet, newYorkTime(time)))).toEqual([
      false,
      false,
      false,
    ]);
    expect(["20:00", "23:30", "00:00", "06:59"].map((time) => isQuietTime(quiet, newYorkTime(time)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it("within one day, and none when unset", () => {
    const { NEW_LEAD_QUIET_HOURS: lunch } = loadConfig({ NEW_LEAD_QUIET_HOURS: "12:00-13:00" });
    expect(isQuietTime(lunch, newYorkTime("12:30"))).toBe(true);
    expect(isQuietTime(lunch, newYorkTime("13:00"))).toBe(false);
    expect(isQuietTime(undefined, newYorkTime("03:00"))).toBe(false);
  });

  it("refuse a value that is not a span of the day, naming the setting", () => {
    for (const value of ["8pm-7am", "20:00", "25:00-07:00", "07:00-07:00"]) {
      expect(() => loadConfig({ NEW_LEAD_QUIET_HOURS: value })).toThrow(
        "NEW_LEAD_QUIET_HOURS must be a span of the day such as 20:00-07:00",
      );
    }
    expect(() => loadConfig({ NEW_LEAD_SMS_TO: "not a phone" })).toThrow("NEW_LEAD_SMS_TO must be a phone number");
    expect(() => loadConfig({ VAPID_SUBJECT: "http://example.com" })).toThrow("VAPID_SUBJECT must be a mailto:");
  });
});
