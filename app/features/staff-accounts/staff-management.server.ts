import { and, count, eq, gt, sql } from "drizzle-orm";
import { type AppLoadContext, data } from "react-router";
import { parseForm } from "~/forms/parse-form";
import { readStaffForm } from "~/forms/read-staff-form.server";
import { invalidFieldsResult, type StaffFormResult } from "~/forms/staff-form-result";
import { calendarAddressMadeAt, turnOffCalendarAddress } from "~/services/auth/calendar-addresses.server";
import { listSignInLocks, unlockSignIn } from "~/services/auth/login-throttle.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { readableTotpSecret, removeLostSecondFactor } from "~/services/auth/second-factor.server";
import { signOutEverywhere } from "~/services/auth/sessions.server";
import {
  createStaffUser,
  findStaffUserById,
  listStaffUsers,
  resetStaffPassword,
  setStaffDisplayName,
  setStaffUserActive,
  UsernameTakenError,
} from "~/services/auth/staff-users.server";
import { staffSessions } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { isSecondFactorRequired, setSecondFactorRequired } from "~/services/settings.server";
import { displayNameSchema, newStaffUserSchema, passwordResetSchema } from "./schemas";

type Reply = StaffFormResult & { intent: string };

function reply(intent: string, status: number, result: StaffFormResult) {
  return data({ ...result, intent } satisfies Reply, { status });
}

const succeeded = (intent: string, message: string) => reply(intent, 200, { status: "success", message });

export async function loadStaffList(context: AppLoadContext) {
  const admin = signedInStaff(context, { role: "admin" });
  const [users, secondFactorRequired, signInLocks] = await Promise.all([
    listStaffUsers(context.db),
    isSecondFactorRequired(context.db),
    listSignInLocks(context.db),
  ]);
  // Times as staff read them, formatted here (see formatStaffTime).
  return {
    users: users.map(({ lastSignedInAt, ...user }) => ({ ...user, lastSignedIn: formatStaffTime(lastSignedInAt) })),
    secondFactorRequired,
    signInLocks: signInLocks.map(({ lockedUntil, ...lock }) => ({
      ...lock,
      lockedUntil: formatStaffTime(lockedUntil),
    })),
    currentUserId: admin.id,
  };
}

/** The staff list page: add a user, require a second factor of everyone, or lift a sign-in lock. */
export async function staffListAction(request: Request, context: AppLoadContext) {
  const admin = signedInStaff(context, { role: "admin" });
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  if (intent === "unlock-sign-in") {
    const key = String(formData.get("key") ?? "");
    const lifted = await unlockSignIn(context.db, key);
    context.logger.info({ key, by: admin.id, lifted }, "sign-in lock lifted");
    return reply(intent, lifted ? 200 : 404, {
      status: lifted ? "success" : "error",
      message: lifted ? "The lock was lifted; sign-in works again at once." : "That lock had already ended.",
    });
  }
  if (intent === "require-second-factor") {
    const required = formData.get("required") === "on";
    await setSecondFactorRequired(context.db, required);
    return succeeded(
      intent,
      required
        ? "Everyone must now set up a second factor before using the staff tools."
        : "A second factor is now optional.",
    );
  }
  if (intent !== "add-user") return reply(intent, 400, { status: "error", message: "Unknown action." });
  const submission = parseForm(formData, newStaffUserSchema);
  if (submission.status !== "success") return reply(intent, 400, invalidFieldsResult(submission));
  try {
    const created = await createStaffUser(context.db, submission.value);
    context.logger.info({ userId: created.id }, "staff user added");
    return reply(intent, 200, { status: "success", message: `Added ${created.username}.` });
  } catch (error) {
    if (!(error instanceof UsernameTakenError)) throw error;
    return reply(intent, 409, {
      status: "error",
      message: "Please correct the fields below.",
      fieldErrors: { username: ["That username is taken"] },
    });
  }
}

async function requireStaffUser(context: AppLoadContext, userIdParam: string | undefined) {
  const id = Number(userIdParam);
  const user = Number.isSafeInteger(id) && id > 0 ? await findStaffUserById(context.db, id) : undefined;
  if (!user) throw data({ message: "No such staff user." }, { status: 404 });
  return user;
}

export async function loadStaffUser(context: AppLoadContext, userIdParam: string | undefined) {
  const admin = signedInStaff(context, { role: "admin" });
  const user = await requireStaffUser(context, userIdParam);
  const calendarMadeAt = calendarAddressMadeAt(context.db, user.id);
  const [sessions] = await context.db
    .select({ count: count() })
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.userId, user.id),
        gt(staffSessions.expiresAt, sql`now()`),
        eq(staffSessions.secondFactorPending, false),
      ),
    );
  return {
    user: {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      role: user.role,
      isActive: user.isActive,
      hasSecondFactor: user.totpSecret !== null,
      // Restored without DATA_ENCRYPTION_KEY: they cannot finish signing in until it is removed.
      secondFactorUnreadable:
        user.totpSecret !== null &&
        readableTotpSecret(context.config.DATA_ENCRYPTION_KEY, user.totpSecret) === undefined,
      lastSignedIn: formatStaffTime(user.lastSignedInAt),
      created: formatStaffTime(user.createdAt),
      calendarAddressMade: await calendarMadeAt.then((madeAt) => (madeAt ? formatStaffTime(madeAt) : null)),
    },
    activeSessions: sessions?.count ?? 0,
    isSelf: admin.id === user.id,
  };
}

/**
 * One staff user's page: change the display name, reset the password, sign out everywhere (the calendar address
 * goes too), turn the calendar address off, remove the second factor, (de)activate.
 */
export async function staffUserAction(request: Request, context: AppLoadContext, userIdParam: string | undefined) {
  const admin = signedInStaff(context, { role: "admin" });
  const user = await requireStaffUser(context, userIdParam);
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  const { db, logger } = context;
  switch (intent) {
    case "set-display-name": {
      const submission = parseForm(formData, displayNameSchema);
      if (submission.status !== "success") return reply(intent, 400, invalidFieldsResult(submission));
      await setStaffDisplayName(db, user.id, submission.value.displayName);
      logger.info({ userId: user.id, by: admin.id }, "staff display name changed");
      return succeeded(intent, `${user.username} is now shown as ${submission.value.displayName}.`);
    }
    case "reset-password": {
      const submission = parseForm(formData, passwordResetSchema);
      if (submission.status !== "success") return reply(intent, 400, invalidFieldsResult(submission));
      await resetStaffPassword(db, user.id, submission.value.password);
      logger.info({ userId: user.id, by: admin.id }, "staff password reset");
      return succeeded(intent, `The password of ${user.username} was reset and all of their sessions were signed out.`);
    }
    case "sign-out-everywhere": {
      const ended = await signOutEverywhere(db, user.id);
      logger.info({ userId: user.id, by: admin.id, ...ended }, "staff sessions signed out");
      const sessions = `Signed ${user.username} out of ${ended.sessions} session${ended.sessions === 1 ? "" : "s"}.`;
      return succeeded(
        intent,
        ended.calendarAddress ? `${sessions} Their calendar address no longer works.` : sessions,
      );
    }
    case "turn-off-calendar-address": {
      const turnedOff = await turnOffCalendarAddress(db, user.id);
      logger.info({ userId: user.id, by: admin.id, turnedOff }, "calendar address turned off");
      return succeeded(
        intent,
        turnedOff
          ? `The calendar address of ${user.username} no longer works.`
          : `${user.username} has no calendar address.`,
      );
    }
    case "remove-second-factor": {
      const ended = await removeLostSecondFactor(db, user.id);
      logger.info({ userId: user.id, by: admin.id, ...ended }, "staff second factor removed");
      return succeeded(
        intent,
        `The second factor of ${user.username} was removed and they were signed out everywhere. They can set up a new one after signing in.`,
      );
    }
    case "deactivate":
    case "reactivate": {
      if (admin.id === user.id) {
        return reply(intent, 400, { status: "error", message: "You cannot deactivate your own account." });
      }
      const active = intent === "reactivate";
      await setStaffUserActive(db, user.id, active);
      logger.info({ userId: user.id, by: admin.id, active }, "staff user active state changed");
      return succeeded(
        intent,
        active ? `${user.username} can sign in again.` : `${user.username} was deactivated and signed out everywhere.`,
      );
    }
    default:
      return reply(intent, 400, { status: "error", message: "Unknown action." });
  }
}
