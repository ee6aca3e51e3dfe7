import { type AppLoadContext, redirect } from "react-router";
import { parseForm } from "~/forms/parse-form";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { staffFormError } from "~/forms/staff-form-result";
import { pruneLoginThrottles, throttledAttempt } from "~/services/auth/login-throttle.server";
import { verifyPassword } from "~/services/auth/password.server";
import { safeRedirectTarget } from "~/services/auth/safe-redirect";
import { deleteExpiredSessions, findSession, startSession } from "~/services/auth/sessions.server";
import { findStaffUserByUsername, normaliseUsername, recordSignIn } from "~/services/auth/staff-users.server";
import {
  CODES_USED_UP_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  loginSchema,
  MISSING_CREDENTIALS_MESSAGE,
} from "./schemas";

/** Whole minutes until a lock ends, at least one. */
export const minutesUntil = (lockedUntil: Date) =>
  Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 60_000));

/** The answer while sign-in is locked: how long for, and nothing about whether the answer was right. */
export function lockedReply(lockedUntil: Date) {
  const minutes = minutesUntil(lockedUntil);
  const message = `Too many failed sign-in attempts. Sign-in is locked for ${minutes} minute${minutes === 1 ? "" : "s"}; please try again later.`;
  return staffFormError(message, 429);
}

/** Where the code step sends a half-way session it ended: back to the password, saying why. */
const CODES_USED_UP_REASON = "wrong-codes";
export const signInAgainAfterWrongCodes = (target: string) =>
  `/admin?ended=${CODES_USED_UP_REASON}&redirectTo=${encodeURIComponent(target)}`;

/** The sign-in page's loader: someone already signed in goes straight on; a sign-in just ended is told why. */
export async function redirectIfSignedIn(request: Request, context: AppLoadContext) {
  const session = await findSession(context.db, context.config, request);
  const searchParams = new URL(request.url).searchParams;
  if (session && !session.secondFactorPending) throw redirect(safeRedirectTarget(searchParams.get("redirectTo")));
  return { notice: searchParams.get("ended") === CODES_USED_UP_REASON ? CODES_USED_UP_MESSAGE : null };
}

/**
 * Checks a username and password. Unknown users, deactivated users and wrong passwords get the same answer
 * after the same work. Each failure counts against the account and the address; a locked one is refused
 * before the password is looked at, so the lock message never tells whether the password was right.
 */
export async function signIn(request: Request, context: AppLoadContext) {
  const { db, config } = context;
  const submission = parseForm(await readStaffForm(request), loginSchema);
  if (submission.status !== "success") return staffFormError(MISSING_CREDENTIALS_MESSAGE, 400);
  const { username, password, redirectTo } = submission.value;
  let user: Awaited<ReturnType<typeof findStaffUserByUsername>>;
  const attempt = await throttledAttempt(
    db,
    "password",
    { username: normaliseUsername(username), clientIp: context.clientIp },
    async () => {
      user = await findStaffUserByUsername(db, username);
      const passwordMatches = await verifyPassword(user?.passwordHash, password);
      return passwordMatches && user?.isActive === true;
    },
  );
  if (attempt.outcome === "locked") return lockedReply(attempt.lockedUntil);
  if (attempt.outcome === "refused" || !user) return staffFormError(INVALID_CREDENTIALS_MESSAGE, 401);

  await Promise.all([deleteExpiredSessions(db, config), pruneLoginThrottles(db)]);
  const target = safeRedirectTarget(redirectTo);
  if (user.totpSecret !== null) {
    const cookie = await startSession(db, config, {
      userId: user.id,
      secondFactorPending: true,
      clientIp: context.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
    return redirect(`/admin/verify?redirectTo=${encodeURIComponent(target)}`, { headers: { "Set-Cookie": cookie } });
  }
  return redirectSignedIn(request, context, user.id, target);
}

/** Starts a full session for the user, records the sign-in, and redirects with the new cookie. */
export async function redirectSignedIn(request: Request, context: AppLoadContext, userId: number, target: string) {
  const cookie = await startSession(context.db, context.config, {
    userId,
    secondFactorPending: false,
    clientIp: context.clientIp,
    userAgent: request.headers.get("user-agent"),
  });
  await recordSignIn(context.db, userId);
  context.logger.info({ userId }, "staff user signed in");
  return redirect(target, { headers: { "Set-Cookie": cookie } });
}
