import { createHash } from "node:crypto";
import { type AppLoadContext, createContext, data, type MiddlewareFunction, redirect } from "react-router";
import type { Database } from "../db/database.server";
import type { StaffRole } from "../db/schema.server";
import { isSecondFactorRequired } from "../settings.server";
import { loginPathFor } from "./safe-redirect";
import { SESSION_UNCHECKED } from "./session-unchecked";
import { findSession, type SessionSettings, type StaffSession } from "./sessions.server";

export const TWO_FACTOR_PATH = "/admin/account/two-factor";

export type SignedInStaff = StaffSession["user"] & { sessionTokenHash: string; totpEnrolmentSecret: string | null };

/**
 * Who signed the request in: null until the staff middleware has, so a staff loader or action reached without it
 * (a route mounted outside the staff layout with no middleware of its own) answers 401, never its page.
 */
const staffContext = createContext<SignedInStaff | null>(null);

/**
 * Signs the request in once for every staff loader and action below it. Without a live session the visitor is
 * sent to sign in (and back here afterwards); a user who must enrol a second factor first is sent to do so. It
 * runs for `.data` requests too, whose URL React Router has already turned back into the page's. When the session
 * cannot be checked (the database gone away or too slow) it fails closed: 503, and no loader or action runs. A
 * staff form keeps its answers on a 503 and says to try again.
 */
export async function signInStaff(request: Request, context: AppLoadContext): Promise<void> {
  const signedIn = await findSignedInStaff(context.db, context.config, request).catch((error: unknown) => {
    context.logger.error({ err: error }, "staff session could not be checked");
    throw data(
      // In the shape of a form's failed answer, for the forms that read it as JSON (the checklist's).
      {
        status: "error",
        message: "We could not check who is signed in. Nothing was shown or changed. Please try again in a moment.",
        retry: true,
        [SESSION_UNCHECKED]: true,
      },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  });
  if (typeof signedIn === "string") {
    throw redirect(signedIn === "sign-in" ? loginPathFor(new URL(request.url)) : TWO_FACTOR_PATH);
  }
  context.set(staffContext, signedIn);
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

/**
 * The user the staff middleware signed in; an admin page passes `role: "admin"` and a staff user gets 403. Every
 * staff loader and action calls it before anything else (app/routes/admin/staff-guard.test.ts calls each of them).
 */
export function signedInStaff(context: AppLoadContext, options: { role?: StaffRole } = {}): SignedInStaff {
  const user = context.get(staffContext);
  if (!user) throw data({ message: "Sign in to see this page." }, { status: 401 });
  if (options.role === "admin" && user.role !== "admin") {
    throw data({ message: "This page is for admins only." }, { status: 403 });
  }
  return user;
}

/**
 * The id the staff app's kept pages are kept under on the device (app/components/staff/kept-page.ts): one per
 * session, so they go when it does, and opaque, naming neither the person nor the session's row.
 */
export function keptPagesOwnerOf(user: Pick<SignedInStaff, "sessionTokenHash">): string {
  return createHash("sha256").update(`kept pages of ${user.sessionTokenHash}`).digest("hex").slice(0, 32);
}
