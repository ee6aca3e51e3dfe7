import type { FormMessages } from "./messages";

/*
 * The answers the browser makes for the server when there is none to pass on, shared by the two ways a form is
 * sent (form-route.ts for React Router's actions, send-form.ts over XMLHttpRequest). No React Router here: the
 * public pages' script uses it too.
 */

/** Why the browser, not our server, answered a send: what the form says and whether anything left the device. */
export type BrowserFailure = "offline" | "unreachable" | "timedOut" | "signedOut";

/** Set on an answer the browser made itself, so the page's loaders are not asked again (they would fail too). */
export const ANSWERED_BY_BROWSER = "answeredByBrowser";

/** The answer a form's page shows when the browser had to answer for the server. */
export type BrowserAnswer = {
  status: "error";
  failure: BrowserFailure;
  message: string;
  retry: true;
  [ANSWERED_BY_BROWSER]: true;
};

/** How long a form waits for the server before it says the send could not be confirmed. */
export const SEND_TIMEOUT_MS = 45_000;

export type FailureMessages = Pick<FormMessages, BrowserFailure | "failed">;

export function browserAnswer(failure: BrowserFailure, messages: FailureMessages): BrowserAnswer {
  return { status: "error", failure, message: messages[failure], retry: true, [ANSWERED_BY_BROWSER]: true };
}

/** Offline when the device says so; otherwise the server could not be reached, or its answer was lost. */
export const connectionFailure = (): BrowserFailure =>
  typeof navigator !== "undefined" && navigator.onLine === false ? "offline" : "unreachable";

/** The sign-in page the staff guard redirects to (`/admin?redirectTo=...`), which means the session ended. */
export function isSignInLocation(location: string | null): boolean {
  if (!location) return false;
  const url = new URL(location, "http://this.site");
  return url.pathname === "/admin" && url.searchParams.has("redirectTo");
}

/** Whether an answer says the session ended before the form was sent. */
export const isSignedOutAnswer = (answer: unknown): boolean =>
  typeof answer === "object" && answer !== null && (answer as Partial<BrowserAnswer>).failure === "signedOut";
