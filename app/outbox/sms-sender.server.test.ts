import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { createSmsSender } from "./sms-sender.server";

let twilio: WebhookReceiver;
beforeAll(async () => {
  twilio = await startWebhookReceiver();
});
afterAll(() => twilio.close());

function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

const twilioError = (status: number, code: number, message: string) => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
});

function senderWith(logger = pino({ level: "silent" })) {
  return createSmsSender({ accountSid: "AC1", authToken: "secret", from: "+18035550100", apiUrl: twilio.url }, logger);
}

describe("the Twilio text sender", () => {
  it("says an opted-out recipient in words and marks it permanent", async () => {
    twilio.respondWith(twilioError(400, 21610, "Attempt to send to unsubscribed recipient"));
    expect(await senderWith().send("+18035550111", { text: "hi" })).toEqual({
      ok: false,
      httpStatus: 400,
      permanent: true,
      error: "The recipient has opted out of texts from this number (they replied STOP) (Twilio 21610)",
    });
  });

  it("retries 429 and 5xx", async () => {
    twilio.respondWith(twilioError(429, 20429, "Too Many Requests"), { status: 500, body: "" });
    const sender = senderWith();
    for (const status of [429, 500]) {
      const outcome = await sender.send("+18035550111", { text: "hi" });
      expect(outcome).toMatchObject({ ok: false, httpStatus: status });
      expect("permanent" in outcome && outcome.permanent).toBeFalsy();
    }
  });

  it("logs refused credentials (401) once, as a configuration error, however many texts fail on it", async () => {
    const { logger, lines } = recordingLogger();
    const sender = senderWith(logger);
    twilio.respondWith(twilioError(401, 20003, "Authenticate"), twilioError(401, 20003, "Authenticate"));
    const outcomes = [
      await sender.send("+18035550111", { text: "a" }),
      await sender.send("+18035550112", { text: "b" }),
    ];
    expect(outcomes.map((outcome) => [outcome.ok, "permanent" in outcome && outcome.permanent])).toEqual([
      [false, false],
      [false, false],
    ]);
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain("check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN");
  });
});
