import { type AppLoadContext, redirect } from "react-router";
import { parseForm } from "~/forms/parse-form";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { staffFormError } from "~/forms/staff-form-result";
import { throttledAttempt } from "~/services/auth/login-throttle.server";
import { safeRedirectTarget } from "~/services/auth/safe-redirect";
import {
  acceptedTotpStep,
  claimTotpStep,
  consumeRecoveryCode,
  isTotpCodeShaped,
  readableTotpSecret,
} from "~/services/auth/second-factor.server";
import {
  CODES_PER_PENDING_SESSION,
  countCodeAttempt,
  endSession,
  findSession,
  type StaffSession,
  uncountCodeAttempt,
} from "~/services/auth/sessions.server";
import { tellOfCodeLock } from "./code-lock-notice.server";
import {
  codesLockedMessage,
  INVALID_CODE_MESSAGE,
  SECOND_FACTOR_UNREADABLE_MESSAGE,
  secondFactorSchema,
} from "./schemas";
import { lockedReply, minutesUntil, redirectSignedIn, signInAgainAfterWrongCodes } from "./sign-in.server";

type PendingSession = StaffSession & { user: { totpSecret: string } };

/** The session between password and code; anyone else has nothing to do on the code screen. */
export async function requirePendingSession(request: Request, context: AppLoadContext): Promise<PendingSession> {
  const session = await findSession(context.db, context.config, request);
  if (!session?.secondFactorPending || session.user.totpSecret === null) throw redirect("/admin");
  return session as PendingSession;
}

/**
 * Accepts a current TOTP code or an unused recovery code, then swaps the half-way session for a full one. The
 * third wrong code ends the half-way session; five wrong authenticator codes on the account, from anywhere,
 * lock its codes (recovery codes still work), and the person and the admins are told.
 */
export async function verifySecondFactor(request: Request, context: AppLoadContext) {
  const { db, config } = context;
  const pending = await requirePendingSession(request, context);
  const submission = parseForm(await readStaffForm(request), secondFactorSchema);
  if (submission.status !== "success") return staffFormError(INVALID_CODE_MESSAGE, 400);
  const { user } = pending;
  const { code, redirectTo } = submission.value;
  const secret = readableTotpSecret(config.DATA_ENCRYPTION_KEY, user.totpSecret);
  // A code from the app cannot be checked without the secret: that is no wrong answer, and is not counted as one.
  if (secret === undefined && isTotpCodeShaped(code)) return staffFormError(SECOND_FACTOR_UNREADABLE_MESSAGE, 409);
  const codeAttempt = await countCodeAttempt(db, pending.tokenHash);
  if (codeAttempt === undefined || codeAttempt > CODES_PER_PENDING_SESSION)
    return endPendingSession(request, context, redirectTo);
  const step = isTotpCodeShaped(code) ? "authenticator-code" : "recovery-code";
  const attempt = await throttledAttempt(
    db,
    step,
    { username: user.username, clientIp: context.clientIp },
    async () => {
      const totpStep =
        secret === undefined ? undefined : acceptedTotpStep(user.username, secret, code, user.totpLastUsedStep);
      if (totpStep !== undefined) return claimTotpStep(db, user.id, totpStep);
      return consumeRecoveryCode(db, user.id, code);
    },
  );
  if (attempt.outcome === "locked") {
    await uncountCodeAttempt(db, pending.tokenHash);
    if (attempt.accountCodes === undefined) return lockedReply(attempt.lockedUntil);
    if (attempt.accountCodes === "now") await tellOfCodeLock(context, user, attempt.lockedUntil);
    return staffFormError(codesLockedMessage(minutesUntil(attempt.lockedUntil)), 429);
  }
  if (attempt.outcome === "refused") {
    if (codeAttempt >= CODES_PER_PENDING_SESSION) return endPendingSession(request, context, redirectTo);
    return secret === undefined
      ? staffFormError(SECOND_FACTOR_UNREADABLE_MESSAGE, 409)
      : staffFormError(INVALID_CODE_MESSAGE, 401);
  }
  await endSession(db, config, request);
  return redirectSignedIn(request, context, user.id, safeRedirectTarget(redirectTo));
}

/** The half-way session's codes are used up: it ends, and the password must be entered again. */
async function endPendingSession(request: Request, context: AppLoadContext, redirectTo: string | undefined) {
  const cookie = await endSession(context.db, context.config, request);
  return redirect(signInAgainAfterWrongCodes(safeRedirectTarget(redirectTo)), { headers: { "Set-Cookie": cookie } });
}
