import { redirect } from "react-router";
import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import { staffMiddleware } from "~/server/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist-submit";

const CHECKLIST_PATH = "/admin/quick-links/estimate-checklist";

/** Outside the staff layout, so it signs its requests in itself. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

/** Nothing to show here: a signed-in visit goes to the checklist, a signed-out one to sign in. */
export function loader() {
  return redirect(CHECKLIST_PATH);
}

/**
 * The checklist's post from the page's script (XMLHttpRequest, for its upload progress), answered with the
 * action's result as JSON and its status. A signed-out post is redirected to sign in, as every staff action is.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const answer = await submitChecklist(request, context);
  return Response.json(answer.data, { status: answer.init?.status ?? 200 });
}
