import { afterAll, beforeAll, expect, test } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { encodeJson, sendWebhook } from "./webhook-sender.server";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

// A new connection per send costs a handshake each time and leaves a socket in TIME_WAIT on both hosts per lead.
test("sends one after another reuse their connections, also when the receiver answers with a long body", async () => {
  const sends = 8;
  receiver.setDefaultResponse({ status: 200, body: JSON.stringify({ accepted: true, echo: "x".repeat(30_000) }) });
  for (let index = 0; index < sends; index++) {
    const outcome = await sendWebhook({ url: receiver.url, webhookId: `msg_${index}`, body: encodeJson({ index }) });
    expect(outcome.ok).toBe(true);
  }
  const connections = new Set(receiver.requests.map((request) => request.connection));
  expect(connections.size).toBeLessThanOrEqual(2);
});
