import { Webhook } from "standardwebhooks";

export type SendOutcome = { ok: true; httpStatus?: number } | { ok: false; httpStatus?: number; error: string };

export const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * POSTs the JSON body with the Standard Webhooks headers. Success is a 2xx within the timeout; a redirect
 * is not followed and counts as a failure, like any other status.
 */
export async function sendWebhook(options: {
  url: string;
  webhookId: string;
  body: unknown;
  secret?: string;
  timeoutMs?: number;
}): Promise<SendOutcome> {
  const payload = JSON.stringify(options.body);
  const timestamp = new Date();
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "tri-county-electric-outbox/1",
    "webhook-id": options.webhookId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
  };
  if (options.secret) {
    headers["webhook-signature"] = new Webhook(options.secret).sign(options.webhookId, timestamp, payload);
  }
  try {
    const response = await fetch(options.url, {
      method: "POST",
      headers,
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true, httpStatus: response.status };
    return { ok: false, httpStatus: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: describeFetchError(error) };
  }
}

function describeFetchError(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return "timed out";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
