import { redirect } from "react-router";
import { photoPreview } from "~/features/estimate-checklist/photo-preview.server";
import { requireStaff } from "~/server/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist-photo-preview";

/** Nothing to show here: a signed-in visit goes to the checklist, a signed-out one to sign in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return redirect("/admin/quick-links/estimate-checklist");
}

/** A JPEG preview of the photo posted, for the checklist's photo list. */
export function action({ request, context }: Route.ActionArgs) {
  return photoPreview(request, context);
}
