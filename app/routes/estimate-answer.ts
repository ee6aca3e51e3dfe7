import { redirect } from "react-router";
import { contactPath } from "~/content/navigation";
import { estimateForm } from "~/features/estimate/definition";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { jsonAnswer, serverAnsweredHandle } from "~/routes/server-answered-route";
import type { Route } from "./+types/estimate-answer";

export const handle = serverAnsweredHandle(estimateForm);

/** Nothing to show here: a visit (a crawler, a link copied by hand) goes to the form itself. */
export function loader() {
  return redirect(contactPath);
}

/**
 * The estimate form's answer in JSON, for the script of the pages that carry it; without JavaScript the form
 * posts to its page, which runs the same action.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const answer = await submitEstimate(request, context);
  return jsonAnswer(answer.data, { status: answer.init?.status ?? 200 });
}
