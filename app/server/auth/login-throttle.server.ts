import { setTimeout as sleep } from "node:timers/promises";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { clientAddressKey } from "../client-address.server";
import type { Database } from "../db/database.server";
import { loginThrottles } from "../db/schema.server";
import { signInFailures, signInLocks } from "../metrics/metrics.server";

/**
 * Failed sign-ins are counted in PostgreSQL, so every app instance sees the same counts, under three keys:
 * - the pair (account, address): five failures within 15 minutes lock that account from that address for 15
 *   minutes. A stranger guessing at a name locks only themselves out, never the office.
 * - the address: 30 failures lock it, which stops one machine from trying many accounts.
 * - the account: never locks, but each failure after the first holds every later wrong answer back longer,
 *   which slows guessing from many addresses.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxPairFailures: 5,
  maxAddressFailures: 30,
} as const;

/** A counter that locks: its key, who and where it is about (shown to admins), and its limit. */
type LockingKey = { key: string; username: string | null; address: string | null; maxFailures: number };

function lockingKeys(username: string, address: string) {
  const pair: LockingKey = {
    key: `pair:${username}|${address}`,
    username,
    address,
    maxFailures: LOGIN_THROTTLE.maxPairFailures,
  };
  const wholeAddress: LockingKey = {
    key: `address:${address}`,
    username: null,
    address,
    maxFailures: LOGIN_THROTTLE.maxAddressFailures,
  };
  return { pair, wholeAddress, all: [pair, wholeAddress] };
}

const windowSeconds = LOGIN_THROTTLE.windowMs / 1000;
const lockSeconds = LOGIN_THROTTLE.lockMs / 1000;
const windowOver = sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
const isLocked = sql`coalesce(${loginThrottles.lockedUntil} > now(), false)`;

/**
 * Counts the attempt against the key before its answer is checked, in one statement, so parallel attempts
 * each get their own number and no more than the limit are ever checked. A locked key is left as it is.
 */
async function reserveAttempt(db: Database, { key, username, address }: LockingKey) {
  const [row] = await db
    .insert(loginThrottles)
    .values({ key, username, address, failures: 1 })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`CASE WHEN ${isLocked} THEN ${loginThrottles.failures}
          WHEN ${windowOver} THEN 1 ELSE ${loginThrottles.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN NOT ${isLocked} AND ${windowOver} THEN now()
          ELSE ${loginThrottles.windowStartedAt} END`,
      },
    })
    .returning({ failures: loginThrottles.failures, lockedUntil: loginThrottles.lockedUntil });
  return { failures: row?.failures ?? 1, lockedUntil: row?.lockedUntil ?? null };
}

/** Gives back an attempt reserved on a key that is not locked: it was not checked, or it was right. */
async function releaseAttempt(db: Database, key: LockingKey): Promise<void> {
  await db
    .update(loginThrottles)
    .set({ failures: sql`greatest(${loginThrottles.failures} - 1, 0)` })
    .where(and(eq(loginThrottles.key, key.key), sql`NOT ${isLocked}`));
}

/** Locks the key for the lock period; its count starts again once the lock is over. */
async function lock(db: Database, key: LockingKey): Promise<Date> {
  const [row] = await db
    .update(loginThrottles)
    .set({
      lockedUntil: sql`now() + make_interval(secs => ${lockSeconds})`,
      failures: 0,
      windowStartedAt: sql`now()`,
    })
    .where(eq(loginThrottles.key, key.key))
    .returning({ lockedUntil: loginThrottles.lockedUntil });
  return row?.lockedUntil ?? new Date(Date.now() + LOGIN_THROTTLE.lockMs);
}

/** Counts a failure against the account alone and returns its count, which sets the delay. */
async function recordAccountFailure(db: Database, username: string): Promise<number> {
  const [row] = await db
    .insert(loginThrottles)
    .values({ key: `account:${username}`, username, failures: 1 })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`CASE WHEN ${windowOver} THEN 1 ELSE ${loginThrottles.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${windowOver} THEN now() ELSE ${loginThrottles.windowStartedAt} END`,
      },
    })
    .returning({ failures: loginThrottles.failures });
  return row?.failures ?? 1;
}

/** How long a failed answer is held back: nothing for the first failure, then 0.25 s, 0.5 s, 1 s … up to 4 s. */
export function failureDelayMs(accountFailures: number): number {
  return accountFailures < 2 ? 0 : Math.min(250 * 2 ** (accountFailures - 2), 4_000);
}

export type ThrottledOutcome =
  | { outcome: "accepted" }
  | { outcome: "refused" }
  | { outcome: "locked"; lockedUntil: Date };

/**
 * One sign-in check (a password, a code) under the throttle. While the pair or the address is locked, or its
 * limit is taken up by attempts in flight, the check is not run at all, so a lock never tells whether the
 * answer was right. A failure is answered after the account's delay and may set a lock; a success gives the
 * attempt back and clears the account's delay.
 */
export async function throttledAttempt(
  db: Database,
  account: { username: string; clientIp: string },
  check: () => Promise<boolean>,
): Promise<ThrottledOutcome> {
  const { pair, wholeAddress, all } = lockingKeys(account.username, clientAddressKey(account.clientIp));
  const reserved = await Promise.all(all.map(async (key) => ({ key, ...(await reserveAttempt(db, key)) })));
  const lockEnds = reserved.flatMap(({ lockedUntil }) =>
    lockedUntil && lockedUntil.getTime() > Date.now() ? [lockedUntil.getTime()] : [],
  );
  const overLimit = reserved.some(({ key, failures }) => failures > key.maxFailures);
  if (lockEnds.length > 0 || overLimit) {
    await Promise.all(all.map((key) => releaseAttempt(db, key)));
    const lockedUntil = lockEnds.length > 0 ? Math.max(...lockEnds) : Date.now() + LOGIN_THROTTLE.lockMs;
    return { outcome: "locked", lockedUntil: new Date(lockedUntil) };
  }

  if (await check()) {
    await releaseAttempt(db, wholeAddress);
    // A right answer ends the pair's count and the account's delay; the address keeps its other failures.
    await db
      .delete(loginThrottles)
      .where(and(inArray(loginThrottles.key, [pair.key, `account:${account.username}`]), sql`NOT ${isLocked}`));
    return { outcome: "accepted" };
  }
  signInFailures.inc();
  const accountFailures = await recordAccountFailure(db, account.username);
  const reachedLimit = reserved.filter(({ key, failures }) => failures >= key.maxFailures);
  const lockEndsNow = await Promise.all(reachedLimit.map(({ key }) => lock(db, key)));
  if (lockEndsNow.length > 0) signInLocks.inc(lockEndsNow.length);
  await sleep(failureDelayMs(accountFailures));
  if (lockEndsNow.length === 0) return { outcome: "refused" };
  return { outcome: "locked", lockedUntil: new Date(Math.max(...lockEndsNow.map((end) => end.getTime()))) };
}

export type SignInLock = { key: string; username: string | null; address: string | null; lockedUntil: Date };

/** The locks in force now, for admins: which account from which address, or which address, and until when. */
export async function listSignInLocks(db: Database): Promise<SignInLock[]> {
  const rows = await db
    .select({
      key: loginThrottles.key,
      username: loginThrottles.username,
      address: loginThrottles.address,
      lockedUntil: loginThrottles.lockedUntil,
    })
    .from(loginThrottles)
    .where(gt(loginThrottles.lockedUntil, sql`now()`))
    .orderBy(asc(loginThrottles.lockedUntil));
  return rows.flatMap((row) => (row.lockedUntil ? [{ ...row, lockedUntil: row.lockedUntil }] : []));
}

/** Lifts a lock at once, with its count; true when there was one to lift. */
export async function unlockSignIn(db: Database, key: string): Promise<boolean> {
  const removed = await db
    .delete(loginThrottles)
    .where(eq(loginThrottles.key, key))
    .returning({ key: loginThrottles.key });
  return removed.length > 0;
}

/** Deletes counts whose window, and any lock, ended over a day ago: they no longer hold anyone back. */
export async function pruneLoginThrottles(db: Database): Promise<void> {
  await db.execute(sql`
    DELETE FROM ${loginThrottles}
    WHERE ${loginThrottles.windowStartedAt} < now() - interval '1 day'
      AND (${loginThrottles.lockedUntil} IS NULL OR ${loginThrottles.lockedUntil} < now() - interval '1 day')`);
}
