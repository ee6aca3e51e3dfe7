import { redirect } from "react-router";
import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import { jsonFormAnswer } from "~/routes/json-form-answer";
import { signedInStaff, staffMiddleware } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist-submit";

/** Outside the staff layout, so it signs its requests in itself: a signed-out post is sent to sign in. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

/** Nothing to show here: a signed-in visit goes to the checklist. */
export function loader({ context }: Route.LoaderArgs) {
  signedInStaff(context);
  return redirect("/admin/quick-links/estimate-checklist");
}

/** The checklist's post from the page's script (XMLHttpRequest, for its upload progress). */
export const action = (args: Route.ActionArgs) => jsonFormAnswer(submitChecklist, args);
