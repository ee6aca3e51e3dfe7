import { downloadInboxCsv } from "~/features/inbox/export-csv.server";
import type { Route } from "./+types/inbox-export";

export function loader({ request, context }: Route.LoaderArgs) {
  return downloadInboxCsv(request, context);
}
