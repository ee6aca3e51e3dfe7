import { setTimeout as sleep } from "node:timers/promises";
import { and, gt, inArray, sql } from "drizzle-orm";
import { clientAddressKey } from "../client-address.server";
import type { Database } from "../db/database.server";
import { loginThrottles } from "../db/schema.server";

/**
 * Failed sign-ins are counted per account and per client address in PostgreSQL, so every app instance sees
 * the same counts. Each failure on an account after the first is answered more slowly; the fifth within
 * 15 minutes locks it for 15 minutes. An address is locked after 30, which stops one machine from trying
 * many accounts without letting a stranger lock out a whole office that shares an address too easily.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxAccountFailures: 5,
  maxAddressFailures: 30,
} as const;

/** A counter: its key, the failures that lock it, and whether its failures slow the answer down. */
type ThrottleKey = { key: string; maxFailures: number; slowsDown: boolean };

function throttleKeys(username: string, clientIp: string): ThrottleKey[] {
  return [
    { key: `account:${username}`, maxFailures: LOGIN_THROTTLE.maxAccountFailures, slowsDown: true },
    { key: `address:${clientAddressKey(clientIp)}`, maxFailures: LOGIN_THROTTLE.maxAddressFailures, slowsDown: false },
  ];
}

/** When the latest lock on any of the keys ends, or undefined when none is locked. */
async function findLock(db: Database, keys: ThrottleKey[]): Promise<Date | undefined> {
  const locks = await db
    .select({ lockedUntil: loginThrottles.lockedUntil })
    .from(loginThrottles)
    .where(
      and(
        inArray(
          loginThrottles.key,
          keys.map((key) => key.key),
        ),
        gt(loginThrottles.lockedUntil, sql`now()`),
      ),
    );
  const ends = locks.flatMap((lock) => (lock.lockedUntil ? [lock.lockedUntil.getTime()] : []));
  return ends.length > 0 ? new Date(Math.max(...ends)) : undefined;
}

/**
 * Counts a failure against every key and locks those that reached their limit. Returns the highest count
 * of the keys that slow down, which sets how long the answer is held back.
 */
async function recordFailure(db: Database, keys: ThrottleKey[]): Promise<{ failures: number; locked: boolean }> {
  const windowSeconds = LOGIN_THROTTLE.windowMs / 1000;
  const lockSeconds = LOGIN_THROTTLE.lockMs / 1000;
  let failures = 0;
  let locked = false;
  for (const { key, maxFailures, slowsDown } of keys) {
    const [row] = await db
      .insert(loginThrottles)
      .values({ key, failures: 1 })
      .onConflictDoUpdate({
        target: loginThrottles.key,
        set: {
          failures: sql`CASE WHEN ${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})
            THEN 1 ELSE ${loginThrottles.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})
            THEN now() ELSE ${loginThrottles.windowStartedAt} END`,
        },
      })
      .returning({ failures: loginThrottles.failures });
    const count = row?.failures ?? 1;
    if (slowsDown) failures = Math.max(failures, count);
    if (count >= maxFailures) {
      locked = true;
      // The count starts again once the lock is over.
      await db
        .update(loginThrottles)
        .set({
          lockedUntil: sql`now() + make_interval(secs => ${lockSeconds})`,
          failures: 0,
          windowStartedAt: sql`now()`,
        })
        .where(sql`${loginThrottles.key} = ${key}`);
    }
  }
  return { failures, locked };
}

/** A correct password clears the account's count; the address keeps its count, so it cannot be reset that way. */
async function clearFailures(db: Database, key: ThrottleKey): Promise<void> {
  await db.delete(loginThrottles).where(sql`${loginThrottles.key} = ${key.key}`);
}

/** How long a failed answer is held back: nothing for the first failure, then 0.25 s, 0.5 s, 1 s … up to 4 s. */
function failureDelayMs(failures: number): number {
  return failures < 2 ? 0 : Math.min(250 * 2 ** (failures - 2), 4_000);
}

export type ThrottledOutcome =
  | { outcome: "accepted" }
  | { outcome: "refused" }
  | { outcome: "locked"; lockedUntil: Date };

/**
 * One sign-in check (a password, a code) under the throttle. While the account or the address is locked the
 * check is not run at all, so a lock never tells whether the answer was right. A failure is counted, answered
 * after the account's delay, and may set a lock; a success clears the account's count.
 */
export async function throttledAttempt(
  db: Database,
  account: { username: string; clientIp: string },
  check: () => Promise<boolean>,
): Promise<ThrottledOutcome> {
  const keys = throttleKeys(account.username, account.clientIp);
  const lockedUntil = await findLock(db, keys);
  if (lockedUntil) return { outcome: "locked", lockedUntil };
  if (await check()) {
    const [accountKey] = keys;
    if (accountKey) await clearFailures(db, accountKey);
    return { outcome: "accepted" };
  }
  const failure = await recordFailure(db, keys);
  await sleep(failureDelayMs(failure.failures));
  if (!failure.locked) return { outcome: "refused" };
  return { outcome: "locked", lockedUntil: (await findLock(db, keys)) ?? new Date() };
}
