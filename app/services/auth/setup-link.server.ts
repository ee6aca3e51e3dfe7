import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { type Database, inTransaction, type Transaction } from "../db/database.server";
import { setupTokens, staffUsers } from "../db/schema.server";
import { hashToken, newSecretToken } from "./secret-token.server";

const SETUP_LINK_LIFETIME_MS = 60 * 60_000;

async function countStaffUsers(db: Pick<Database, "select">): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(staffUsers);
  return row?.count ?? 0;
}

/**
 * With no staff account at all, logs a one-time link, valid for an hour, that creates the first admin.
 * Each start without an account logs a fresh link; operators can also use `npm run user -- create`.
 */
export async function announceFirstAdminSetup(db: Database, siteUrl: string, logger: Logger): Promise<void> {
  if ((await countStaffUsers(db)) > 0) return;
  const token = newSecretToken();
  await db
    .insert(setupTokens)
    .values({ tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SETUP_LINK_LIFETIME_MS) });
  const setupUrl = `${siteUrl}/admin/setup?token=${token}`;
  logger.warn(
    { setupUrl },
    `No staff account exists yet. Create the first admin within one hour at ${setupUrl} (or run npm run user -- create)`,
  );
}

const isUnusedLiveToken = (token: string) =>
  and(eq(setupTokens.tokenHash, hashToken(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, sql`now()`));

/** Whether the token is an unused, unexpired setup link and no account exists yet. */
export async function isSetupTokenValid(db: Database, token: string): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: setupTokens.tokenHash })
    .from(setupTokens)
    .where(
      and(
        eq(setupTokens.tokenHash, hashToken(token)),
        isNull(setupTokens.usedAt),
        gt(setupTokens.expiresAt, sql`now()`),
      ),
    );
  return row !== undefined && (await countStaffUsers(db)) === 0;
}

/**
 * Runs `createAdmin` only if the token is still valid, marking it used in the same transaction. Two tabs
 * submitting the same link at once create one admin: the second waits on the row lock, then finds it used.
 */
export async function redeemSetupToken<T>(
  db: Database,
  token: string,
  createAdmin: (tx: Transaction) => Promise<T>,
): Promise<T | undefined> {
  return inTransaction(db, async (tx) => {
    // Links from two instances' starts are different rows; one lock makes "no account yet" hold for one of them.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('first-admin-setup'))`);
    const [row] = await tx
      .select({ tokenHash: setupTokens.tokenHash })
      .from(setupTokens)
      .where(isUnusedLiveToken(token))
      .for("update");
    if (!row) return undefined;
    if ((await countStaffUsers(tx)) > 0) return undefined;
    const created = await createAdmin(tx);
    await tx.update(setupTokens).set({ usedAt: new Date() }).where(eq(setupTokens.tokenHash, row.tokenHash));
    return created;
  });
}
