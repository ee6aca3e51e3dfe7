import { data } from "react-router";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/staff-not-found";

/**
 * Any other path under /admin: signed in, a 404 inside the staff frame; signed out, the way to sign in, as for
 * every staff path, so a visitor learns nothing of which staff screens exist.
 */
export function loader({ context }: Route.LoaderArgs) {
  signedInStaff(context);
  throw data(null, { status: 404 });
}

/** Never shown, since the loader always throws; having a component makes this a page, drawn in the staff frame. */
export default function StaffNotFound() {
  return null;
}
