/** Where a form fetches its fill-time token (app/routes/fill-token.ts). */
const FILL_TOKEN_PATH = "/forms/fill-token";

/**
 * A fresh fill-time token, asked for the first time a form is touched: a prerendered page cannot carry one,
 * and the browser's own clock is never asked. Undefined when the server could not give one (offline, say);
 * the caller asks again on the next touch, and a form sent without a token is simply not timed.
 */
export async function requestFillToken(): Promise<string | undefined> {
  try {
    const response = await fetch(FILL_TOKEN_PATH, { cache: "no-store" });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { token?: string };
    return body.token;
  } catch {
    return undefined;
  }
}
