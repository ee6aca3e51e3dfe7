import type { ClientActionFunctionArgs } from "react-router";
import type { FormActionResult } from "~/forms/action-result";
import { teamMessageForm } from "./definition";

/**
 * Passes the server's answer through; when the server cannot be reached, the screen says the message failed
 * and keeps the form as it was. A redirect (the session ended) is still followed.
 */
export async function teamMessageClientAction({ serverAction }: ClientActionFunctionArgs): Promise<FormActionResult> {
  try {
    return (await serverAction()) as FormActionResult;
  } catch (error) {
    if (error instanceof Response) throw error;
    return { status: "error", message: teamMessageForm.messages.unreachable, retry: true };
  }
}
