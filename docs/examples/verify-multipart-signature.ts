import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A receiver's check of our `webhook-signature` (Standard Webhooks v1) on any delivery, the multipart ones
 * (job applications with a resume, peer reviews with their PDF) included: HMAC-SHA256 with the key after
 * `whsec_`, over `${webhook-id}.${webhook-timestamp}.` followed by the body's bytes exactly as received. Never
 * decode the body to text first: a PDF's bytes do not survive it. Rejects a timestamp more than five minutes
 * away from the receiver's clock, as Standard Webhooks does.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string },
  rawBody: Uint8Array,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = Number(headers["webhook-timestamp"]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.`)
    .update(rawBody)
    .digest();
  // The header may carry several signatures, "v1,<base64> v1,<base64>", while a secret is being rotated.
  return headers["webhook-signature"].split(" ").some((versioned) => {
    const [version, signature = ""] = versioned.split(",");
    const given = Buffer.from(signature, "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
