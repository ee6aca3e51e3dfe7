import { loadTechnicianOptions } from "~/features/team-communication/load-technicians.server";
import type { Route } from "./+types/team-communication-technicians";

export function loader({ request, context }: Route.LoaderArgs) {
  return loadTechnicianOptions(request, context);
}
