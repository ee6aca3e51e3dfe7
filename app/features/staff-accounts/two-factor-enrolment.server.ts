import { type AppLoadContext, data } from "react-router";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { throttledAttempt } from "~/services/auth/login-throttle.server";
import { verifyPassword } from "~/services/auth/password.server";
import { type SignedInStaff, signedInStaff } from "~/services/auth/require-staff.server";
import {
  acceptedTotpStep,
  claimTotpStep,
  countUnusedRecoveryCodes,
  enableTotp,
  enrolmentDetails,
  newTotpSecret,
  openEnrolmentSecret,
  readableTotpSecret,
  removeTotp,
  replaceRecoveryCodes,
  setEnrolmentSecret,
} from "~/services/auth/second-factor.server";
import { findStaffUserById } from "~/services/auth/staff-users.server";
import { isSecondFactorRequired } from "~/services/settings.server";
import { tellOfCodeLock } from "./code-lock-notice.server";
import { SECOND_FACTOR_UNREADABLE_MESSAGE } from "./schemas";
import { lockedReply } from "./sign-in.server";

export type TwoFactorActionResult = StaffFormResult & { recoveryCodes?: string[] };

const CODE_REJECTED = "That code did not match. Check the time on your phone and enter the current 6-digit code.";
const PASSWORD_AND_CODE_REJECTED = "That password or code did not match. Enter your password and the current code.";
const PASSWORD_REJECTED = "That password did not match.";

/**
 * The second-factor page. Without one, a secret is made and kept on the session (encrypted) until confirmed,
 * so a reload shows the same QR code; it only becomes the user's once a code from the app proves the app has it.
 */
export async function loadTwoFactor(context: AppLoadContext) {
  const user = signedInStaff(context);
  const key = context.config.DATA_ENCRYPTION_KEY;
  const required = await isSecondFactorRequired(context.db);
  if (user.totpSecret) {
    const unusedRecoveryCodes = await countUnusedRecoveryCodes(context.db, user.id);
    return { enrolled: true as const, required, username: user.username, unusedRecoveryCodes };
  }
  let secret = user.totpEnrolmentSecret ? openEnrolmentSecret(key, user.totpEnrolmentSecret) : undefined;
  if (!secret) {
    secret = newTotpSecret();
    await setEnrolmentSecret(context.db, key, user.sessionTokenHash, secret);
  }
  const { uri, qrCodeDataUrl } = await enrolmentDetails(user.username, secret);
  return { enrolled: false as const, required, username: user.username, secret, uri, qrCodeDataUrl };
}

/** Checks the user's password (and, when given, a current code), under the sign-in throttle. */
function confirmIdentity(
  context: AppLoadContext,
  user: SignedInStaff,
  password: string,
  code: string | undefined,
): ReturnType<typeof throttledAttempt> {
  const signInStep = code === undefined ? "password" : "authenticator-code";
  return throttledAttempt(context.db, signInStep, { username: user.username, clientIp: context.clientIp }, async () => {
    const stored = await findStaffUserById(context.db, user.id);
    if (!(await verifyPassword(stored?.passwordHash, password))) return false;
    if (code === undefined) return true;
    const secret = stored?.totpSecret
      ? readableTotpSecret(context.config.DATA_ENCRYPTION_KEY, stored.totpSecret)
      : undefined;
    if (!stored || secret === undefined) return false;
    const step = acceptedTotpStep(user.username, secret, code, stored.totpLastUsedStep);
    return step !== undefined && (await claimTotpStep(context.db, user.id, step));
  });
}

export async function twoFactorAction(request: Request, context: AppLoadContext) {
  const user = signedInStaff(context);
  const key = context.config.DATA_ENCRYPTION_KEY;
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  const code = String(formData.get("code") ?? "");
  const password = String(formData.get("password") ?? "");
  const answer = (status: number, result: TwoFactorActionResult) => data({ ...result, intent }, { status });

  if (intent === "confirm") {
    const secret = user.totpEnrolmentSecret ? openEnrolmentSecret(key, user.totpEnrolmentSecret) : undefined;
    if (user.totpSecret || !secret) {
      return answer(409, { status: "error", message: "Reload the page to start setting up again." });
    }
    const step = acceptedTotpStep(user.username, secret, code, null);
    if (step === undefined) return answer(400, { status: "error", message: CODE_REJECTED });
    await enableTotp(context.db, key, user.id, secret, step);
    await setEnrolmentSecret(context.db, key, user.sessionTokenHash, null);
    const recoveryCodes = await replaceRecoveryCodes(context.db, user.id);
    context.logger.info({ userId: user.id }, "second factor enrolled");
    return answer(200, {
      status: "success",
      message: "Your second factor is on. From now on, signing in asks for a code from your app.",
      recoveryCodes,
    });
  }

  if (intent === "turn-off") {
    if (!user.totpSecret) return answer(409, { status: "error", message: "No second factor is set up." });
    if (readableTotpSecret(key, user.totpSecret) === undefined) {
      return answer(409, { status: "error", message: SECOND_FACTOR_UNREADABLE_MESSAGE });
    }
    if (await isSecondFactorRequired(context.db)) {
      return answer(403, { status: "error", message: "An admin requires a second factor for everyone." });
    }
    const attempt = await confirmIdentity(context, user, password, code);
    if (attempt.outcome === "locked") {
      if (attempt.accountCodes === "now") await tellOfCodeLock(context, user, attempt.lockedUntil);
      return lockedReply(attempt.lockedUntil);
    }
    if (attempt.outcome === "refused") return answer(400, { status: "error", message: PASSWORD_AND_CODE_REJECTED });
    await removeTotp(context.db, user.id);
    context.logger.info({ userId: user.id }, "second factor turned off");
    return answer(200, { status: "success", message: "Your second factor is off." });
  }

  if (intent === "new-recovery-codes") {
    if (!user.totpSecret) return answer(409, { status: "error", message: "No second factor is set up." });
    const attempt = await confirmIdentity(context, user, password, undefined);
    if (attempt.outcome === "locked") return lockedReply(attempt.lockedUntil);
    if (attempt.outcome === "refused") return answer(400, { status: "error", message: PASSWORD_REJECTED });
    const recoveryCodes = await replaceRecoveryCodes(context.db, user.id);
    context.logger.info({ userId: user.id }, "recovery codes replaced");
    return answer(200, {
      status: "success",
      message: "Here are your new recovery codes. The old ones no longer work.",
      recoveryCodes,
    });
  }
  return answer(400, { status: "error", message: "Unknown action." });
}
