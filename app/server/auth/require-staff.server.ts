import { type AppLoadContext, data, redirect } from "react-router";
import type { StaffRole } from "../db/schema.server";
import { isSecondFactorRequired } from "../settings.server";
import { loginPathFor } from "./safe-redirect";
import { findSession, type StaffSession } from "./sessions.server";

export const TWO_FACTOR_PATH = "/admin/account/two-factor";

export type SignedInStaff = StaffSession["user"] & { sessionTokenHash: string; totpEnrolmentSecret: string | null };

/**
 * The guard of every staff loader and action. Without a live session the visitor is sent to sign in (and
 * back here afterwards); a user who must enrol a second factor first is sent to do so; a staff user asking
 * for an admin page gets 403. It runs for `.data` requests too, since those call the same loaders.
 */
export async function requireStaff(
  request: Request,
  context: AppLoadContext,
  options: { role?: StaffRole } = {},
): Promise<SignedInStaff> {
  const session = await findSession(context.db, context.config, request);
  const url = new URL(request.url);
  if (!session || session.secondFactorPending) throw redirect(loginPathFor(url));
  if (url.pathname !== TWO_FACTOR_PATH && !session.user.totpSecret && (await isSecondFactorRequired(context.db))) {
    throw redirect(TWO_FACTOR_PATH);
  }
  if (options.role === "admin" && session.user.role !== "admin") {
    throw data({ message: "This page is for admins only." }, { status: 403 });
  }
  return { ...session.user, sessionTokenHash: session.tokenHash, totpEnrolmentSecret: session.totpEnrolmentSecret };
}
