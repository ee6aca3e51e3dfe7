import { serveSubmissionFile } from "~/features/inbox/submission-file-download.server";
import { staffMiddleware } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/inbox-file";

/** Outside the staff layout, so it signs its requests in itself. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

export const loader = ({ request, context, params }: Route.LoaderArgs) => serveSubmissionFile(request, context, params);
