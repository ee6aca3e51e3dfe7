import { setTimeout as sleep } from "node:timers/promises";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { clientAddressKey } from "../client-address.server";
import type { Database } from "../db/database.server";
import { loginThrottles } from "../db/schema.server";
import { signInFailures, signInLocks } from "../metrics/metrics.server";

/**
 * Failed sign-ins are counted in PostgreSQL, so every app instance sees the same counts, under these keys:
 * - the pair (account, address): five wrong passwords within 15 minutes lock that account from that address for
 *   15 minutes. A stranger guessing at a name locks only themselves out, never the office.
 * - the address: 30 failures (passwords and codes) lock it, which stops one machine from trying many accounts.
 * - the account's code step: five wrong authenticator codes within 15 minutes, from any addresses, lock it for
 *   15 minutes. Whoever gets this far has the password, so a lock that others can set costs nothing the password
 *   did not already give away; without it, six-digit codes fall to guesses spread over many addresses.
 * - the account's password step: never locks, but each wrong password after the first holds every later wrong
 *   answer back longer, which slows guessing from many addresses.
 * An IPv6 address counts by its /48 (clientAddressKey).
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxPairFailures: 5,
  maxAddressFailures: 30,
  maxAccountCodeFailures: 5,
  ipv6PrefixLength: 48,
} as const;

/** Which answer is being checked: a password, a code from the authenticator app, or a recovery code. */
export type SignInStep = "password" | "authenticator-code" | "recovery-code";

/** A counter that locks: its key, who and where it is about (shown to admins), and its limit. */
type LockingKey = { key: string; username: string | null; address: string | null; maxFailures: number };

const accountCodeKey = (username: string) => `code:${username}`;
/** Where wrong codes came from: counted, never locking, so the lock's notice can say from how many addresses. */
const codeSourcePrefix = (username: string) => `code-from:${username}|`;

/** The step's own count (none for recovery codes) and the address's, shared by every step. */
function lockingKeys(step: SignInStep, username: string, address: string) {
  const wholeAddress: LockingKey = {
    key: `address:${address}`,
    username: null,
    address,
    maxFailures: LOGIN_THROTTLE.maxAddressFailures,
  };
  const own: LockingKey | undefined =
    step === "password"
      ? { key: `pair:${username}|${address}`, username, address, maxFailures: LOGIN_THROTTLE.maxPairFailures }
      : step === "authenticator-code"
        ? { key: accountCodeKey(username), username, address: null, maxFailures: LOGIN_THROTTLE.maxAccountCodeFailures }
        : // A recovery code is 80 random bits, out of reach of guessing: it still opens the account while its
          // authenticator codes are locked, which is how the person gets in while someone else holds that lock.
          undefined;
  return { own, wholeAddress, all: own ? [own, wholeAddress] : [wholeAddress] };
}

/** Counts a wrong answer under the step's keys that never lock, and returns how long to hold the answer back. */
async function countWrongAnswer(db: Database, step: SignInStep, username: string, address: string) {
  if (step === "password") return failureDelayMs(await countFailure(db, `account:${username}`, username, null));
  await countFailure(db, `${codeSourcePrefix(username)}${address}`, username, address);
  return 0;
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

/** Counts a failure under a key that never locks and returns its count in the window. */
async function countFailure(db: Database, key: string, username: string, address: string | null): Promise<number> {
  const [row] = await db
    .insert(loginThrottles)
    .values({ key, username, address, failures: 1 })
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

/** From how many addresses (IPv6 by /48) wrong codes for the account came within the window. */
export async function codeFailureAddressCount(db: Database, username: string): Promise<number> {
  const rows = await db
    .select({ key: loginThrottles.key })
    .from(loginThrottles)
    .where(and(sql`starts_with(${loginThrottles.key}, ${codeSourcePrefix(username)})`, sql`NOT ${windowOver}`));
  return rows.length;
}

/** How long a failed answer is held back: nothing for the first failure, then 0.25 s, 0.5 s, 1 s … up to 4 s. */
export function failureDelayMs(accountFailures: number): number {
  return accountFailures < 2 ? 0 : Math.min(250 * 2 ** (accountFailures - 2), 4_000);
}

export type ThrottledOutcome =
  | { outcome: "accepted" }
  | { outcome: "refused" }
  /**
   * `accountCodes` when the account's authenticator codes are among what is locked: "now" when this answer
   * locked them (the moment to tell the person and the admins), "already" when they were.
   */
  | { outcome: "locked"; lockedUntil: Date; accountCodes?: "now" | "already" };

/**
 * One sign-in check (a password, a code) under the throttle. While one of its keys is locked, or its limit is
 * taken up by attempts in flight, the check is not run at all, so a lock never tells whether the answer was
 * right. A failure may set a lock; a wrong password is answered after the account's delay. A success gives the
 * attempt back and ends its own step's counts: a right password never clears the count of wrong codes.
 */
export async function throttledAttempt(
  db: Database,
  step: SignInStep,
  account: { username: string; clientIp: string },
  check: () => Promise<boolean>,
): Promise<ThrottledOutcome> {
  const { username } = account;
  const address = clientAddressKey(account.clientIp, LOGIN_THROTTLE.ipv6PrefixLength);
  const { own, wholeAddress, all } = lockingKeys(step, username, address);
  const reserved = await Promise.all(all.map(async (key) => ({ key, ...(await reserveAttempt(db, key)) })));
  const lockEndOf = ({ lockedUntil }: { lockedUntil: Date | null }) =>
    lockedUntil && lockedUntil.getTime() > Date.now() ? lockedUntil.getTime() : undefined;
  const holding = reserved.filter((entry) => lockEndOf(entry) !== undefined || entry.failures > entry.key.maxFailures);
  const accountCodes = (locking: readonly { key: LockingKey }[]) =>
    step === "authenticator-code" && locking.some(({ key }) => key === own);
  if (holding.length > 0) {
    await Promise.all(all.map((key) => releaseAttempt(db, key)));
    const lockEnds = holding.map((entry) => lockEndOf(entry) ?? Date.now() + LOGIN_THROTTLE.lockMs);
    const lockedUntil = new Date(Math.max(...lockEnds));
    return accountCodes(holding)
      ? { outcome: "locked", lockedUntil, accountCodes: "already" }
      : { outcome: "locked", lockedUntil };
  }

  if (await check()) {
    await releaseAttempt(db, wholeAddress);
    // A right answer ends its own step's count (a right password also the account's delay); the address keeps
    // its other failures.
    const ended = [...(own ? [own.key] : []), ...(step === "password" ? [`account:${username}`] : [])];
    if (ended.length > 0) {
      await db.delete(loginThrottles).where(and(inArray(loginThrottles.key, ended), sql`NOT ${isLocked}`));
    }
    return { outcome: "accepted" };
  }
  signInFailures.inc();
  const delay = await countWrongAnswer(db, step, username, address);
  const reachedLimit = reserved.filter(({ key, failures }) => failures >= key.maxFailures);
  const lockEndsNow = await Promise.all(reachedLimit.map(({ key }) => lock(db, key)));
  if (lockEndsNow.length > 0) signInLocks.inc(lockEndsNow.length);
  await sleep(delay);
  if (lockEndsNow.length === 0) return { outcome: "refused" };
  const lockedUntil = new Date(Math.max(...lockEndsNow.map((end) => end.getTime())));
  return accountCodes(reachedLimit)
    ? { outcome: "locked", lockedUntil, accountCodes: "now" }
    : { outcome: "locked", lockedUntil };
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
