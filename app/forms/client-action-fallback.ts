import type { ClientActionFunctionArgs, ShouldRevalidateFunctionArgs } from "react-router";

/** Set on the answer the browser made itself because our server could not be reached. */
const UNREACHABLE = "serverUnreachable";

/**
 * A client action that passes the server's answer through, and answers `failure` when our server cannot be
 * reached or fails outright: the visitor gets a message and keeps every value, instead of the error screen.
 * With `offline`, a form sent while the device has no connection answers that instead: nothing left it.
 */
export function clientActionFallingBackTo<Result>(failure: Result, offline?: Result) {
  return async ({ serverAction }: ClientActionFunctionArgs): Promise<Result> => {
    if (offline !== undefined && !navigator.onLine) return { ...offline, [UNREACHABLE]: true };
    try {
      return (await serverAction()) as Result;
    } catch {
      return { ...failure, [UNREACHABLE]: true };
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
