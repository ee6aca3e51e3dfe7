import type { ClientActionFunctionArgs } from "react-router";

/**
 * A client action that passes the server's answer through, and answers `failure` when our server cannot be
 * reached or fails outright: the visitor gets a message and keeps every value, instead of the error screen.
 */
export function clientActionFallingBackTo<Result>(failure: Result) {
  return async ({ serverAction }: ClientActionFunctionArgs): Promise<Result> => {
    try {
      return (await serverAction()) as Result;
    } catch {
      return failure;
    }
  };
}
