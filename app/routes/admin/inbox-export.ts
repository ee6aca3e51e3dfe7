import { downloadInboxCsv } from "~/features/inbox/export-csv.server";
import type { Route } from "./+types/inbox-export";

export const loader = ({ request, context }: Route.LoaderArgs) => downloadInboxCsv(request, context);
