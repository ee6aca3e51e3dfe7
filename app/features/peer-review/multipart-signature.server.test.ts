import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { peerReviewFields } from "#tests/peer-review-fixture";
import { addStaffUser } from "#tests/staff";
import { staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { verifyWebhookSignature } from "../../../docs/examples/verify-multipart-signature";
import { submitPeerReview } from "./submit-peer-review.server";

const EXAMPLE_PATH = "docs/examples/verify-multipart-signature.ts";
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

let database: TestDatabase;
let receiver: WebhookReceiver;
/** The peer review's multipart post (fields and the PDF) as the receiver got it, signed with SECRET. */
let delivery: ReceivedRequest;
let headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startWebhookReceiver();
  const context = loadContextFor(database.db, {
    WEBHOOK_PEER_REVIEW_URL: `${receiver.url}peer-review`,
    WEBHOOK_SECRET: SECRET,
  });
  const reviewer = await addStaffUser(database.db, "staff");
  const request = await staffRequest(context, reviewer.id, "/admin/quick-links/peer-review", {
    method: "POST",
    body: new URLSearchParams(peerReviewFields("Nguyễn Văn An", Array(15).fill("4"))),
  });
  const response = await submitPeerReview(request, context);
  expect((response.data as { status: string }).status).toBe("success");
  await context.deliveryWorker.runOnce();
  [delivery] = (await receiver.waitForRequests(1)) as [ReceivedRequest];
  headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  };
});
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

describe("verifying the signature of a multipart delivery, as docs/forms/forms-and-deliveries.md shows", () => {
  it("is a multipart body with a PDF, whose bytes are not UTF-8 text", () => {
    expect(delivery.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(delivery.rawBody.includes(Buffer.from("%PDF-"))).toBe(true);
    expect(Buffer.from(delivery.rawBody.toString("utf8")).equals(delivery.rawBody)).toBe(false);
  });

  it("accepts the body's raw bytes with the example's code", () => {
    expect(verifyWebhookSignature(SECRET, headers, delivery.rawBody)).toBe(true);
  });

  it("rejects another secret, a changed byte, another id and an old timestamp", () => {
    const otherSecret = `whsec_${randomBytes(32).toString("base64")}`;
    expect(verifyWebhookSignature(otherSecret, headers, delivery.rawBody)).toBe(false);
    const changed = Buffer.from(delivery.rawBody);
    changed[changed.length - 10] = (changed[changed.length - 10] ?? 0) ^ 1;
    expect(verifyWebhookSignature(SECRET, headers, changed)).toBe(false);
    expect(verifyWebhookSignature(SECRET, { ...headers, "webhook-id": "msg_other" }, delivery.rawBody)).toBe(false);
    const hourLater = Number(headers["webhook-timestamp"]) + 3600;
    expect(verifyWebhookSignature(SECRET, headers, delivery.rawBody, hourLater)).toBe(false);
  });

  it("fails with the standardwebhooks library, which turns the body into text before it signs it", () => {
    const library = new Webhook(SECRET);
    expect(() => library.verify(delivery.rawBody, headers)).toThrow(WebhookVerificationError);
    expect(() => library.verify(delivery.body, headers)).toThrow(WebhookVerificationError);
  });
});

describe("the example in docs/forms/forms-and-deliveries.md", () => {
  it("quotes the example file's lines as they are", () => {
    const guide = readFileSync(new URL("../../../docs/forms/forms-and-deliveries.md", import.meta.url), "utf8");
    const example = readFileSync(new URL(`../../../${EXAMPLE_PATH}`, import.meta.url), "utf8");
    const after = guide.slice(guide.indexOf(`\`${EXAMPLE_PATH}\``));
    const quoted = /```ts\n([\s\S]*?)```/.exec(after)?.[1] ?? "";
    const exampleLines = new Set(example.split("\n").map((line) => line.trim()));
    const quotedLines = quoted
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    expect(quotedLines.length).toBeGreaterThan(5);
    for (const line of quotedLines) expect(exampleLines, line).toContain(line);
  });
});
