import { type AppLoadContext, redirect } from "react-router";
import { parseForm } from "~/forms/parse-form";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { staffFormError } from "~/forms/staff-form-result";
import { throttledAttempt } from "~/server/auth/login-throttle.server";
import { safeRedirectTarget } from "~/server/auth/safe-redirect";
import {
  acceptedTotpStep,
  claimTotpStep,
  consumeRecoveryCode,
  isTotpCodeShaped,
  readableTotpSecret,
} from "~/server/auth/second-factor.server";
import { endSession, findSession, type StaffSession } from "~/server/auth/sessions.server";
import { INVALID_CODE_MESSAGE, SECOND_FACTOR_UNREADABLE_MESSAGE, secondFactorSchema } from "./schemas";
import { lockedReply, redirectSignedIn } from "./sign-in.server";

type PendingSession = StaffSession & { user: { totpSecret: string } };

/** The session between password and code; anyone else has nothing to do on the code screen. */
export async function requirePendingSession(request: Request, context: AppLoadContext): Promise<PendingSession> {
  const session = await findSession(context.db, context.config, request);
  if (!session?.secondFactorPending || session.user.totpSecret === null) throw redirect("/admin");
  return session as PendingSession;
}

/** Accepts a current TOTP code or an unused recovery code, then swaps the half-way session for a full one. */
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
  const attempt = await throttledAttempt(db, { username: user.username, clientIp: context.clientIp }, async () => {
    const step =
      secret === undefined ? undefined : acceptedTotpStep(user.username, secret, code, user.totpLastUsedStep);
    if (step !== undefined) return claimTotpStep(db, user.id, step);
    return consumeRecoveryCode(db, user.id, code);
  });
  if (attempt.outcome === "locked") return lockedReply(attempt.lockedUntil);
  if (attempt.outcome === "refused") {
    return secret === undefined
      ? staffFormError(SECOND_FACTOR_UNREADABLE_MESSAGE, 409)
      : staffFormError(INVALID_CODE_MESSAGE, 401);
  }
  await endSession(db, config, request);
  return redirectSignedIn(request, context, user.id, safeRedirectTarget(redirectTo));
}
