import { redirect } from "react-router";
import { photoPreview } from "~/features/estimate-checklist/photo-preview.server";
import { signedInStaff, staffMiddleware } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist-photo-preview";

/** Outside the staff layout, so it signs its requests in itself. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

/** Nothing to show here: a signed-in visit goes to the checklist, a signed-out one to sign in. */
export function loader({ context }: Route.LoaderArgs) {
  signedInStaff(context);
  return redirect("/admin/quick-links/estimate-checklist");
}

/** A JPEG preview of the photo posted, for the checklist's photo list. */
export const action = ({ request, context }: Route.ActionArgs) => photoPreview(request, context);
