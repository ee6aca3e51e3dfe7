import { redirect } from "react-router";
import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import { requireStaff } from "~/server/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist-submit";

const CHECKLIST_PATH = "/admin/quick-links/estimate-checklist";

/** Nothing to show here: a signed-in visit goes to the checklist, a signed-out one to sign in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
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
