import type { ClientActionFunctionArgs } from "react-router";
import { type AssessmentActionResult, UNREACHABLE_MESSAGE } from "./schema";

/**
 * In the browser the action goes through here: when our server cannot be reached, or fails outright, the
 * person gets a message and a Retry button, and keeps every answer, instead of the error screen.
 */
export async function assessmentClientAction({
  serverAction,
}: ClientActionFunctionArgs): Promise<AssessmentActionResult> {
  try {
    return (await serverAction()) as AssessmentActionResult;
  } catch {
    return { status: "error", message: UNREACHABLE_MESSAGE, retry: true };
  }
}
