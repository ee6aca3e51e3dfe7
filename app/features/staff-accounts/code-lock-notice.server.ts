import { and, eq, like, or } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { queueStaffNotices } from "~/outbox/staff-notices.server";
import { codeFailureAddressCount, LOGIN_THROTTLE } from "~/services/auth/login-throttle.server";
import type { Config } from "~/services/config.server";
import type { Database } from "~/services/db/database.server";
import { staffUsers } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";

type LockedAccount = { id: number; username: string; displayName: string };

/**
 * Who hears that an account's codes were locked: the person and every active admin, by their usernames where
 * those are email addresses (accounts hold no other); when no admin has one, the office email stands in.
 */
async function recipientsOf(db: Database, config: Pick<Config, "STAFF_NOTIFY_EMAIL">, account: LockedAccount) {
  const people = await db
    .select({ username: staffUsers.username, role: staffUsers.role })
    .from(staffUsers)
    .where(
      and(
        eq(staffUsers.isActive, true),
        like(staffUsers.username, "%@%"),
        or(eq(staffUsers.id, account.id), eq(staffUsers.role, "admin")),
      ),
    );
  const addresses = people.map(({ username }) => username);
  const adminTold = people.some(({ role }) => role === "admin");
  if (!adminTold && config.STAFF_NOTIFY_EMAIL && !addresses.includes(config.STAFF_NOTIFY_EMAIL)) {
    addresses.push(config.STAFF_NOTIFY_EMAIL);
  }
  return addresses;
}

/** The notice's words: what happened, what it means, and what to do. No address of whoever tried. */
export function codeLockNoticeText(account: LockedAccount, addressCount: number, lockedUntil: Date) {
  const name = account.displayName;
  const fromWhere = addressCount === 1 ? "from one address" : `from ${addressCount} different addresses`;
  const minutes = LOGIN_THROTTLE.windowMs / 60_000;
  return {
    subject: `Two-step verification locked for ${name}`,
    text: [
      `Someone entered the right password for ${name}'s staff account (username ${account.username}), then ${LOGIN_THROTTLE.maxAccountCodeFailures} wrong two-step verification codes within ${minutes} minutes, ${fromWhere}.`,
      `Codes from the authenticator app are not accepted on this account until ${formatStaffTime(lockedUntil)} (New York time). A recovery code still signs in.`,
      `If this was not ${name}, someone else knows the password: an admin should reset it now (Staff, ${name}, Reset password), which also signs the account out everywhere.`,
    ].join("\n\n"),
  };
}

/** Stores the notice of an account's codes locked, one email per recipient; returns how many were stored. */
async function queueCodeLockNotices(
  db: Database,
  config: Pick<Config, "STAFF_NOTIFY_EMAIL">,
  account: LockedAccount,
  lockedUntil: Date,
): Promise<number> {
  const recipients = await recipientsOf(db, config, account);
  const words = codeLockNoticeText(account, await codeFailureAddressCount(db, account.username), lockedUntil);
  await queueStaffNotices(
    db,
    recipients.map((recipient) => ({ recipient, ...words })),
  );
  return recipients.length;
}

/** Tells the person and the admins that the account's codes were just locked, and logs it (without any address). */
export async function tellOfCodeLock(context: AppLoadContext, account: LockedAccount, lockedUntil: Date) {
  const told = await queueCodeLockNotices(context.db, context.config, account, lockedUntil);
  context.logger.warn({ userId: account.id, emailsQueued: told }, "two-step verification locked after wrong codes");
}
