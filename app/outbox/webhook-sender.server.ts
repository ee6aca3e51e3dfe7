import { createHmac } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

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
    const httpStatus = await postBytes(
      new URL(options.url),
      headers,
      options.body.bytes,
      options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    );
    if (httpStatus >= 200 && httpStatus < 300) return { ok: true, httpStatus };
    return { ok: false, httpStatus, error: `HTTP ${httpStatus}` };
  } catch (error) {
    return { ok: false, error: describeSendError(error) };
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
 * Kept-alive connections to every receiver, reused from send to send: a handshake per lead cost a tenth of the
 * app's CPU under load (the worker bounds how many are open to one target). Node's own client rather than
 * fetch, which cost as much again in request and stream objects for a body that is already in memory.
 */
const AGENTS = { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) };

class SendTimeout extends Error {
  constructor() {
    super("timed out");
  }
}

/**
 * POSTs `body` and resolves with the answer's status once its body is read (up to DRAINED_BYTES, which hands the
 * connection back for the next send). The whole exchange has `timeoutMs`. A connection the receiver closed
 * while it sat idle is found only when a send goes out on it: that send is made once more on a new one. `agent`
 * is the shared kept-alive one of the URL's scheme unless one is given (a push's checks its addresses).
 */
export function postBytes(
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
  timeoutMs: number,
  agent?: HttpAgent,
): Promise<number> {
  const protocol = url.protocol;
  if (protocol !== "http:" && protocol !== "https:")
    return Promise.reject(new Error(`cannot send to ${protocol} URLs`));
  const send = protocol === "https:" ? httpsRequest : httpRequest;
  const deadline = Date.now() + timeoutMs;
  const attempt = (retryStale: boolean): Promise<number> =>
    new Promise((resolve, reject) => {
      const request = send(url, {
        method: "POST",
        headers: { ...headers, "content-length": String(body.byteLength) },
        agent: agent ?? AGENTS[protocol],
      });
      const timer = setTimeout(() => request.destroy(new SendTimeout()), Math.max(0, deadline - Date.now()));
      let settled = false;
      const settle = (error: Error | undefined, status?: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!error) resolve(status ?? 0);
        else if (retryStale && request.reusedSocket && (error as { code?: string }).code === "ECONNRESET") {
          resolve(attempt(false));
        } else reject(error);
      };
      request.once("error", (error) => settle(error));
      request.once("response", (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.byteLength;
          if (read <= DRAINED_BYTES) return;
          settle(undefined, response.statusCode);
          response.destroy();
        });
        response.once("end", () => settle(undefined, response.statusCode));
        response.once("error", (error) => settle(error));
        response.once("close", () =>
          settle(response.complete ? undefined : new Error("the answer was cut off"), response.statusCode),
        );
      });
      request.end(body);
    });
  return attempt(true);
}

export function describeSendError(error: unknown): string {
  if (error instanceof SendTimeout) return error.message;
  const code = (error as { code?: string }).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
