import { type AppLoadContext, data } from "react-router";
import { parseForm } from "~/forms/parse-form";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { invalidFieldsResult, staffFormError } from "~/forms/staff-form-result";
import { STAFF_HOME } from "~/services/auth/safe-redirect";
import { isSetupTokenValid, redeemSetupToken } from "~/services/auth/setup-link.server";
import { createStaffUser } from "~/services/auth/staff-users.server";
import { firstAdminSchema, SETUP_LINK_INVALID_MESSAGE } from "./schemas";
import { redirectSignedIn } from "./sign-in.server";

export async function loadFirstAdminSetup(request: Request, context: AppLoadContext) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: token !== "" && (await isSetupTokenValid(context.db, token)) };
}

/** Creates the first admin from a valid setup link and signs them in. */
export async function createFirstAdmin(request: Request, context: AppLoadContext) {
  const submission = parseForm(await readStaffForm(request), firstAdminSchema);
  if (submission.status !== "success") return data(invalidFieldsResult(submission), { status: 400 });
  const { token, username, displayName, password } = submission.value;
  const admin = await redeemSetupToken(context.db, token, (tx) =>
    createStaffUser(tx, { username, displayName, password, role: "admin" }),
  );
  if (!admin) return staffFormError(SETUP_LINK_INVALID_MESSAGE, 410);
  context.logger.info({ userId: admin.id, username: admin.username }, "first admin account created");
  return redirectSignedIn(request, context, admin.id, STAFF_HOME);
}
