import { createHmac } from "node:crypto";

/** How a send went. A permanent failure (a number that can never be texted) is not tried again. */
export type SendOutcome =
  | { ok: true; httpStatus?: number }
  | { ok: false; httpStatus?: number; error: string; permanent?: boolean };

/** A request body as it goes over the wire: the exact bytes that are signed and sent. */
export type EncodedBody = { bytes: Uint8Array<ArrayBuffer>; contentType: string };

export const WEBHOOK_TIMEOUT_MS = 15_000;

export function encodeJson(body: unknown): EncodedBody {
  return { bytes: new TextEncoder().encode(JSON.stringify(body)), contentType: "application/json" };
}

/**
 * POSTs the body with the Standard Webhooks headers. Success is a 2xx within the timeout; a redirect
 * is not followed and counts as a failure, like any other status.
 */
export async function sendWebhook(options: {
  url: string;
  webhookId: string;
  /** The submission's reference number (EST-7K3QX9), so the receiver can link to the staff inbox. */
  reference?: string;
  body: EncodedBody;
  secret?: string;
  timeoutMs?: number;
}): Promise<SendOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "content-type": options.body.contentType,
    "user-agent": "tri-county-electric-outbox/1",
    "webhook-id": options.webhookId,
    "webhook-timestamp": String(timestamp),
  };
  if (options.reference) headers["submission-reference"] = options.reference;
  if (options.secret) {
    headers["webhook-signature"] = signWebhook(options.secret, options.webhookId, timestamp, options.body.bytes);
  }
  try {
    const response = await fetch(options.url, {
      method: "POST",
      headers,
      body: options.body.bytes,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    await drain(response.body);
    if (response.status >= 200 && response.status < 300) return { ok: true, httpStatus: response.status };
    return { ok: false, httpStatus: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: describeFetchError(error) };
  }
}

/**
 * The Standard Webhooks v1 signature: HMAC-SHA256 over `id.timestamp.body` with the base64 key after
 * `whsec_`. Written here rather than with the standardwebhooks package because its sign() turns a Buffer
 * into a UTF-8 string first, which changes the bytes of a binary body (a PDF in a multipart post).
 */
export function signWebhook(secret: string, webhookId: string, timestamp: number, body: Uint8Array): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${webhookId}.${timestamp}.`).update(body).digest("base64");
  return `v1,${signature}`;
}

/** The most of an answer's body read to keep its connection; a longer one is cut, and its connection with it. */
const DRAINED_BYTES = 64 * 1024;

/**
 * Reads the answer's body to its end, which hands its connection back to be reused; cancelling a body that is
 * not all read yet makes the client close the connection, so every send would open a new one.
 */
async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  for (let read = 0; read <= DRAINED_BYTES; ) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  await reader.cancel();
}

function describeFetchError(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return "timed out";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
