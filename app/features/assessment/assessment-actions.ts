import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type AssessmentActionResult, assessmentForm } from "./definition";

/**
 * When our server cannot be reached, or fails outright, the person gets a message and a Retry button, and
 * keeps every answer, instead of the error screen.
 */
export const assessmentClientAction = clientActionFallingBackTo<AssessmentActionResult>(assessmentForm.messages);
