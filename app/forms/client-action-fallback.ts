import type { ClientActionFunctionArgs, ShouldRevalidateFunctionArgs } from "react-router";
import type { FormMessages } from "./messages";

/** Set on the answer the browser made itself because our server could not be reached. */
const UNREACHABLE = "serverUnreachable";

/** The answer a form's page shows when the browser, not our server, had to answer. */
export type UnreachableResult = { status: "error"; message: string; retry: true; [UNREACHABLE]: true };

/**
 * A client action that passes the server's answer through, and answers an error of its own when our server
 * cannot be reached or fails outright: the visitor gets a message and keeps every value (and chosen file),
 * instead of the error screen. Offline, nothing left the device, so it says the connection was lost. Online,
 * the request may have been stored before its answer was lost, so it says the send could not be confirmed and
 * that sending again is safe: the form's double-submit key makes the server answer with the stored reference.
 * A redirect (a session that ended) is still followed.
 */
export function clientActionFallingBackTo<Result>(messages: Pick<FormMessages, "offline" | "unreachable">) {
  return async ({ serverAction }: ClientActionFunctionArgs): Promise<Result | UnreachableResult> => {
    try {
      return (await serverAction()) as Result;
    } catch (error) {
      if (error instanceof Response) throw error;
      const message = navigator.onLine ? messages.unreachable : messages.offline;
      return { status: "error", message, retry: true, [UNREACHABLE]: true };
    }
  };
}

/**
 * A route's `shouldRevalidate` for pages with loaders: after an action that could not reach the server, the
 * loaders are not asked again either (they would fail the same way and replace the form with the error
 * screen); otherwise as React Router would.
 */
export function revalidateUnlessUnreachable({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const unreachable = typeof actionResult === "object" && actionResult !== null && UNREACHABLE in actionResult;
  return unreachable ? false : defaultShouldRevalidate;
}
