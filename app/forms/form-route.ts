import { type ClientActionFunctionArgs, isRouteErrorResponse, type ShouldRevalidateFunctionArgs } from "react-router";
import { isSessionUncheckedAnswer } from "~/services/auth/session-unchecked";
import {
  ANSWERED_BY_BROWSER,
  type BrowserAnswer,
  type BrowserFailure,
  browserAnswer,
  connectionFailure,
  type FailureMessages,
  isSignedOutAnswer,
  isSignInLocation,
  SEND_TIMEOUT_MS,
} from "./browser-answer";
import { handOverOnFailure, type KeptAnswer } from "./queue-answer";

/**
 * An error the route itself answered (a 403, or a body too large), or our own 503 when the session could not be
 * checked (nothing was read or stored, so sending again is safe), shown as the form's message.
 */
type RouteRefusal = { status: "error"; message: string; retry: boolean };

const timeout = (milliseconds: number) =>
  new Promise<typeof SEND_TIMEOUT_MS>((resolve) => setTimeout(() => resolve(SEND_TIMEOUT_MS), milliseconds));

/**
 * What a form's route exports besides its server action: the one way every React form is sent. The client
 * action passes the server's answer through and answers for it when there is none to pass: offline, the
 * server out of reach or answering with something that is not ours (a proxy's 502 or 503), no answer within
 * SEND_TIMEOUT_MS, or a session that ended (the sign-in redirect is not followed, so the answers stay on the
 * screen and in the device's draft). An error answer of the route (a 403 or 413 it threw) becomes the form's
 * error message rather than the error screen. `shouldRevalidate` skips the loaders after an answer the
 * browser made, since they would fail the same way and replace the form with the error screen. A staff form sent
 * without signal or after its session ended is handed to the device's queue and sent by itself later
 * (device-forms.ts, decisions 0904 and 1002).
 */
export function formRoute<Result>(definition: {
  type: string;
  label: string;
  audience: "public" | "staff";
  messages: FailureMessages;
}) {
  const { messages } = definition;
  /** The browser's answer for a send that failed, once a staff form is handed to the queue where it waits. */
  async function answerFailure(request: Request, body: FormData, failure: BrowserFailure) {
    const page = new URL(request.url).pathname;
    const info = { formType: definition.type, label: definition.label, page, action: page, answeredInJson: false };
    const kept = definition.audience === "staff" ? await handOverOnFailure(info, messages)(body, failure) : undefined;
    return kept ?? browserAnswer(failure, messages);
  }
  return {
    async clientAction({
      request,
      serverAction,
    }: ClientActionFunctionArgs): Promise<Result | BrowserAnswer | RouteRefusal | KeptAnswer> {
      const body = await request.clone().formData();
      try {
        const answer = await Promise.race([serverAction<Result>(), timeout(SEND_TIMEOUT_MS)]);
        if (answer === SEND_TIMEOUT_MS) return browserAnswer("timedOut", messages);
        // Filled in by someone other than the session's person: it waits for theirs, as after a session ended.
        return isSignedOutAnswer(answer) ? answerFailure(request, body, "signedOut") : (answer as Result);
      } catch (error) {
        if (error instanceof Response) {
          if (isSignInLocation(error.headers.get("Location"))) return answerFailure(request, body, "signedOut");
          throw error;
        }
        if (isRouteErrorResponse(error) && error.status === 503 && isSessionUncheckedAnswer(error.data)) {
          return { status: "error", message: messages.failed, retry: true } satisfies RouteRefusal;
        }
        // A 4xx the route threw says what was wrong; another 5xx (ours or a proxy's) cannot say whether it was stored.
        if (isRouteErrorResponse(error) && error.status < 500) {
          const message = (error.data as { message?: unknown } | undefined)?.message;
          const refusal: RouteRefusal = {
            status: "error",
            message: typeof message === "string" ? message : messages.failed,
            retry: false,
          };
          return refusal;
        }
        return answerFailure(request, body, connectionFailure());
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
