import type { AppLoadContext } from "react-router";
import { submitForm } from "~/forms/submit-form.server";
import { applicationForm, type StoredApplication } from "./definition";
import { withoutUnusedFollowUps } from "./schema";

/** The application form's action: the pipeline, storing the answers that apply and the resume beside them. */
export function submitApplication(request: Request, context: AppLoadContext) {
  return submitForm(request, context, applicationForm, {
    payload: (application): StoredApplication => {
      const { resume: _resume, ...answers } = withoutUnusedFollowUps(application);
      return answers;
    },
  });
}
