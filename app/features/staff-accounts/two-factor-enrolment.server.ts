import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { requireStaff } from "~/server/auth/require-staff.server";
import {
  acceptedTotpStep,
  enrolmentDetails,
  newTotpSecret,
  replaceRecoveryCodes,
} from "~/server/auth/second-factor.server";
import { setEnrolmentSecret } from "~/server/auth/sessions.server";
import { setTotpSecret } from "~/server/auth/staff-users.server";
import { isSecondFactorRequired } from "~/server/settings.server";

export type TwoFactorActionResult = StaffFormResult & { recoveryCodes?: string[] };

const CODE_REJECTED = "That code did not match. Check the time on your phone and enter the current 6-digit code.";

/**
 * The second-factor page. Without one, a secret is made and kept on the session until confirmed, so a reload
 * shows the same QR code; it only becomes the user's once a code from the app proves the app has it.
 */
export async function loadTwoFactor(request: Request, context: AppLoadContext) {
  const user = await requireStaff(request, context);
  const required = await isSecondFactorRequired(context.db);
  if (user.totpSecret) return { enrolled: true as const, required, username: user.username };
  let secret = user.totpEnrolmentSecret;
  if (!secret) {
    secret = newTotpSecret();
    await setEnrolmentSecret(context.db, user.sessionTokenHash, secret);
  }
  const { uri, qrCodeDataUrl } = await enrolmentDetails(user.username, secret);
  return { enrolled: false as const, required, username: user.username, secret, uri, qrCodeDataUrl };
}

export async function twoFactorAction(request: Request, context: AppLoadContext) {
  const user = await requireStaff(request, context);
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  const code = String(formData.get("code") ?? "");
  const answer = (status: number, result: TwoFactorActionResult) => data({ ...result, intent }, { status });

  if (intent === "confirm") {
    const secret = user.totpEnrolmentSecret;
    if (user.totpSecret || !secret) {
      return answer(409, { status: "error", message: "Reload the page to start setting up again." });
    }
    const step = acceptedTotpStep(user.username, secret, code, null);
    if (step === undefined) return answer(400, { status: "error", message: CODE_REJECTED });
    await setTotpSecret(context.db, user.id, secret, step);
    await setEnrolmentSecret(context.db, user.sessionTokenHash, null);
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
    if (await isSecondFactorRequired(context.db)) {
      return answer(403, { status: "error", message: "An admin requires a second factor for everyone." });
    }
    if (acceptedTotpStep(user.username, user.totpSecret, code, user.totpLastUsedStep) === undefined) {
      return answer(400, { status: "error", message: CODE_REJECTED });
    }
    await setTotpSecret(context.db, user.id, null);
    context.logger.info({ userId: user.id }, "second factor turned off");
    return answer(200, { status: "success", message: "Your second factor is off." });
  }
  return answer(400, { status: "error", message: "Unknown action." });
}
