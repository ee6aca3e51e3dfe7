import { type AppLoadContext, createContext, data, type MiddlewareFunction, redirect } from "react-router";
import type { Database } from "../db/database.server";
import type { StaffRole } from "../db/schema.server";
import { isSecondFactorRequired } from "../settings.server";
import { loginPathFor } from "./safe-redirect";
import { findSession, type SessionSettings, type StaffSession } from "./sessions.server";

export const TWO_FACTOR_PATH = "/admin/account/two-factor";

export type SignedInStaff = StaffSession["user"] & { sessionTokenHash: string; totpEnrolmentSecret: string | null };

/**
 * Who signed the request in, or the error that kept the session from being checked (the database gone away).
 * The error is kept, not thrown, so that it surfaces where the user is asked for: a staff form answers it as a
 * failed store with its values kept, as it did when each action checked the session itself.
 */
type StaffSignIn = { user: SignedInStaff } | { failure: Error };

const staffContext = createContext<StaffSignIn>();

/**
 * Signs the request in once for every staff loader and action below it. Without a live session the visitor is
 * sent to sign in (and back here afterwards); a user who must enrol a second factor first is sent to do so. It
 * runs for `.data` requests too, whose URL React Router has already turned back into the page's.
 */
export async function signInStaff(request: Request, context: AppLoadContext): Promise<void> {
  try {
    const signedIn = await findSignedInStaff(context.db, context.config, request);
    if (typeof signedIn === "string") {
      throw redirect(signedIn === "sign-in" ? loginPathFor(new URL(request.url)) : TWO_FACTOR_PATH);
    }
    context.set(staffContext, { user: signedIn });
  } catch (thrown) {
    if (!(thrown instanceof Error)) throw thrown;
    context.set(staffContext, { failure: thrown });
  }
}

/**
 * The staff user whose live session signed the request, or what they must do first: sign in (no session, or a
 * second factor still to give), or set up a second factor once an admin requires one (except on that page).
 * A database failure is thrown.
 */
export async function findSignedInStaff(
  db: Database,
  config: SessionSettings,
  request: Request,
): Promise<SignedInStaff | "sign-in" | "two-factor"> {
  const session = await findSession(db, config, request);
  if (!session || session.secondFactorPending) return "sign-in";
  const onTwoFactorPage = new URL(request.url).pathname === TWO_FACTOR_PATH;
  if (!onTwoFactorPage && !session.user.totpSecret && (await isSecondFactorRequired(db))) return "two-factor";
  const { tokenHash: sessionTokenHash, totpEnrolmentSecret } = session;
  return { ...session.user, sessionTokenHash, totpEnrolmentSecret };
}

/** The middleware of the staff layout and of the staff routes outside it. */
export const staffMiddleware: MiddlewareFunction<Response> = ({ request, context }) => signInStaff(request, context);

/** The user the staff middleware signed in; an admin page passes `role: "admin"` and a staff user gets 403. */
export function signedInStaff(context: AppLoadContext, options: { role?: StaffRole } = {}): SignedInStaff {
  const signIn = context.get(staffContext);
  if ("failure" in signIn) throw signIn.failure;
  if (options.role === "admin" && signIn.user.role !== "admin") {
    throw data({ message: "This page is for admins only." }, { status: 403 });
  }
  return signIn.user;
}
