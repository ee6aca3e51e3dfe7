import { sitePhotoFile } from "~/features/site-editor/site-editor.server";
import { staffMiddleware } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/site-photo";

/** An image, not a screen: outside the staff layout, so it signs its requests in itself. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

export const loader = ({ context, params }: Route.LoaderArgs) => sitePhotoFile(context, params.file);
