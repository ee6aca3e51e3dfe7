import { redirect } from "react-router";
import { endSession } from "~/services/auth/sessions.server";
import type { Route } from "./+types/logout";

export const loader = () => redirect("/admin");

export async function action({ request, context }: Route.ActionArgs) {
  const cookie = await endSession(context.db, context.config, request);
  return redirect("/admin", { headers: { "Set-Cookie": cookie } });
}
