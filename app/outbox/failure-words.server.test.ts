import { describe, expect, it } from "vitest";
import { failureInWords } from "./failure-words.server";
import { unconfiguredTargetError } from "./targets.server";

describe("a delivery's failure as staff read it", () => {
  it.each([
    [
      "email",
      "The receiving mail server refused the address (SMTP 550 5.1.1 <tech@example.com> rejected)",
      "the address was refused",
    ],
    [
      "email",
      "The receiving mail server turned the address away for now (SMTP 451 4.7.1 try later)",
      "the mail server turned it away for now",
    ],
    ["email", "ECONNREFUSED", "the service did not answer"],
    ["email", "SMTP_URL is not set", "it is not set up on this server"],
    ["sms", "Not a valid phone number (Twilio 21211)", "the number cannot take texts"],
    ["sms", "Not a mobile number that can receive texts (Twilio 21614)", "the number cannot take texts"],
    [
      "sms",
      "The recipient has opted out of texts from this number (they replied STOP) (Twilio 21610)",
      "the person turned texts from us off",
    ],
    ["sms", "The 'To' number +18035550150 is not reachable (Twilio 21408)", "the text service refused it"],
    ["sms", "Twilio is busy or unavailable (HTTP 503)", "the service was busy or unavailable"],
    ["sms", "fetch failed", "the service did not answer"],
    ["webhook", "HTTP 500", "the service was busy or unavailable"],
    ["webhook", "HTTP 404", "the service refused it"],
    ["webhook", "timed out", "the service did not answer"],
    ["webhook", unconfiguredTargetError("WEBHOOK_ESTIMATE_URL"), "it is not set up on this server"],
    [
      "push",
      "The device no longer takes notifications; its subscription was removed",
      "the device no longer takes notifications",
    ],
    [
      "sms",
      "This number has had 10 texts in the last 24 hours, the most one number gets",
      "the number had its most texts for a day",
    ],
    [
      "push",
      "The device's push address is not https; its subscription was removed",
      "the device's push address is not a push service",
    ],
    ["push", "something no one foresaw, to tech@example.com", "it could not be sent"],
  ] as const)("%s: %s", (channel, error, words) => {
    expect(failureInWords(channel, error)).toBe(words);
  });

  it("is nothing when nothing failed", () => {
    expect(failureInWords("email", null)).toBeNull();
  });
});
