import { serveSubmissionFile } from "~/features/inbox/submission-file-download.server";
import type { Route } from "./+types/inbox-file";

export function loader({ request, context, params }: Route.LoaderArgs) {
  return serveSubmissionFile(request, context, params);
}
