import { type ClientActionFunctionArgs, isRouteErrorResponse, type ShouldRevalidateFunctionArgs } from "react-router";
import type { FormMessages } from "./messages";

/** Why the browser, not our server, answered a send: what the form says and whether anything left the device. */
export type BrowserFailure = "offline" | "unreachable" | "timedOut" | "signedOut";

/** Set on an answer the browser made itself, so the page's loaders are not asked again (they would fail too). */
const ANSWERED_BY_BROWSER = "answeredByBrowser";

/** The answer a form's page shows when the browser had to answer for the server. */
export type BrowserAnswer = {
  status: "error";
  failure: BrowserFailure;
  message: string;
  retry: true;
  [ANSWERED_BY_BROWSER]: true;
};

/** An error the route itself answered (a 403, or a body too large), shown as the form's message. */
type RouteRefusal = { status: "error"; message: string; retry: false };

/** How long a form waits for the server before it says the send could not be confirmed. */
export const SEND_TIMEOUT_MS = 45_000;

type FailureMessages = Pick<FormMessages, BrowserFailure | "failed">;

export function browserAnswer(failure: BrowserFailure, messages: FailureMessages): BrowserAnswer {
  return { status: "error", failure, message: messages[failure], retry: true, [ANSWERED_BY_BROWSER]: true };
}

/** Offline when the device says so; otherwise the server could not be reached, or its answer was lost. */
export const connectionFailure = (): BrowserFailure => (navigator.onLine ? "unreachable" : "offline");

/** The sign-in page the staff guard redirects to (`/admin?redirectTo=...`), which means the session ended. */
export function isSignInLocation(location: string | null): boolean {
  if (!location) return false;
  const url = new URL(location, "http://this.site");
  return url.pathname === "/admin" && url.searchParams.has("redirectTo");
}

const timeout = (milliseconds: number) =>
  new Promise<typeof SEND_TIMEOUT_MS>((resolve) => setTimeout(() => resolve(SEND_TIMEOUT_MS), milliseconds));

/**
 * What a form's route exports besides its server action: the one way every React form is sent. The client
 * action passes the server's answer through and answers for it when there is none to pass: offline, the
 * server out of reach or answering with something that is not ours (a proxy's 502 or 503), no answer within
 * SEND_TIMEOUT_MS, or a session that ended (the sign-in redirect is not followed, so the answers stay on the
 * screen and in the device's draft). An error answer of the route (a 403 or 413 it threw) becomes the form's
 * error message rather than the error screen. `shouldRevalidate` skips the loaders after an answer the
 * browser made, since they would fail the same way and replace the form with the error screen.
 */
export function formRoute<Result>(definition: { messages: FailureMessages }) {
  const { messages } = definition;
  return {
    async clientAction({ serverAction }: ClientActionFunctionArgs): Promise<Result | BrowserAnswer | RouteRefusal> {
      try {
        const answer = await Promise.race([serverAction<Result>(), timeout(SEND_TIMEOUT_MS)]);
        return answer === SEND_TIMEOUT_MS ? browserAnswer("timedOut", messages) : (answer as Result);
      } catch (error) {
        if (error instanceof Response) {
          if (isSignInLocation(error.headers.get("Location"))) return browserAnswer("signedOut", messages);
          throw error;
        }
        if (isRouteErrorResponse(error)) {
          const message = (error.data as { message?: unknown } | undefined)?.message;
          const refusal: RouteRefusal = {
            status: "error",
            message: typeof message === "string" ? message : messages.failed,
            retry: false,
          };
          return refusal;
        }
        return browserAnswer(connectionFailure(), messages);
      }
    },
    shouldRevalidate: revalidateUnlessAnsweredByBrowser,
  };
}

/** A `shouldRevalidate` for the layouts above the forms' routes, by the same rule. */
export function revalidateUnlessAnsweredByBrowser({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const byBrowser = typeof actionResult === "object" && actionResult !== null && ANSWERED_BY_BROWSER in actionResult;
  return byBrowser ? false : defaultShouldRevalidate;
}

/** Whether an answer says the session ended before the form was sent. */
export const isSignedOutAnswer = (answer: unknown): boolean =>
  typeof answer === "object" && answer !== null && (answer as Partial<BrowserAnswer>).failure === "signedOut";
