import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import type { Route } from "./+types/estimate-answer";

/**
 * The estimate form's answer in JSON, for the script of the pages that carry it; without JavaScript the form
 * posts to its page, which runs the same action.
 */
export function action({ request, context }: Route.ActionArgs) {
  return submitEstimate(request, context);
}
