import type { AppLoadContext } from "react-router";
import { submitForm } from "~/forms/submit-form.server";
import { estimateForm } from "./definition";

/**
 * The estimate form's action, shared by every page that carries the form. The form is not cleared after a
 * success (docs/spec.md §4), and the page needs the project type for its success text.
 */
export function submitEstimate(request: Request, context: AppLoadContext) {
  return submitForm(request, context, estimateForm, {
    success: ({ payload, reply }) => ({ projectType: payload.projectType, result: reply() }),
  });
}
