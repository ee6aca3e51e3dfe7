import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import type { Route } from "./+types/estimate-checklist-submit";

/**
 * The checklist's post from the page's script (XMLHttpRequest, for its upload progress), answered with the
 * action's result as JSON and its status. A signed-out post is redirected to sign in, as every staff action is.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const answer = await submitChecklist(request, context);
  return Response.json(answer.data, { status: answer.init?.status ?? 200 });
}
