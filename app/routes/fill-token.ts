import { issueFillToken } from "~/forms/fill-time.server";
import { jsonAnswer, serverAnsweredHandle } from "~/routes/server-answered-route";
import type { Route } from "./+types/fill-token";

export const handle = serverAnsweredHandle({ maxBodyBytes: 0 });

/** A fresh fill-time token for a form that was just touched; never cached, since its time is the point. */
export const loader = ({ context }: Route.LoaderArgs) =>
  jsonAnswer({ token: issueFillToken(context.config) }, { headers: { "Cache-Control": "no-store" } });
