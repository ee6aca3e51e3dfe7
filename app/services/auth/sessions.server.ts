import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import type { Config } from "../config.server";
import { type Database, inTransaction } from "../db/database.server";
import { type StaffRole, staffSessions, staffUsers } from "../db/schema.server";
import { turnOffCalendarAddress } from "./calendar-addresses.server";
import { hashToken, newSecretToken } from "./secret-token.server";

/** Between the password and the code: long enough to open the authenticator app, no longer. */
const SECOND_FACTOR_WINDOW_MS = 10 * 60_000;
/** Codes a half-way session may try: the third wrong one ends it, and the password must be entered again. */
export const CODES_PER_PENDING_SESSION = 3;
/** The last-seen time is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export type StaffSession = {
  tokenHash: string;
  secondFactorPending: boolean;
  totpEnrolmentSecret: string | null;
  user: {
    id: number;
    username: string;
    displayName: string;
    role: StaffRole;
    totpSecret: string | null;
    totpLastUsedStep: number | null;
  };
};

export type SessionSettings = Pick<Config, "NODE_ENV" | "SESSION_SECRET" | "SESSION_IDLE_TIMEOUT" | "SESSION_MAX_AGE">;

/**
 * The cookie holds the session token, signed with SESSION_SECRET so a made-up value is refused before any
 * lookup. In production it is `__Host-` prefixed and Secure: only this origin over HTTPS can set or read it.
 */
function sessionCookie(config: SessionSettings) {
  if (!config.SESSION_SECRET) throw new Error("SESSION_SECRET is not resolved; the server sets it at start");
  const production = config.NODE_ENV === "production";
  return createCookie(production ? "__Host-staff_session" : "staff_session", {
    httpOnly: true,
    sameSite: "lax",
    secure: production,
    path: "/",
    secrets: [config.SESSION_SECRET],
  });
}

async function readToken(request: Request, config: SessionSettings): Promise<string | undefined> {
  const value: unknown = await sessionCookie(config).parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Starts a session for the user and returns the Set-Cookie header that hands it to the browser. */
export async function startSession(
  db: Database,
  config: SessionSettings,
  details: { userId: number; secondFactorPending: boolean; clientIp?: string; userAgent?: string | null },
): Promise<string> {
  const token = newSecretToken();
  const lifetime = details.secondFactorPending ? SECOND_FACTOR_WINDOW_MS : config.SESSION_MAX_AGE;
  await db.insert(staffSessions).values({
    tokenHash: hashToken(token),
    userId: details.userId,
    secondFactorPending: details.secondFactorPending,
    expiresAt: new Date(Date.now() + lifetime),
    clientIp: details.clientIp ?? null,
    userAgent: details.userAgent?.slice(0, 500) ?? null,
  });
  // A session cookie when it only bridges to the second factor; otherwise it lives as long as the session may.
  return sessionCookie(config).serialize(token, {
    maxAge: details.secondFactorPending ? undefined : Math.floor(config.SESSION_MAX_AGE / 1000),
  });
}

/**
 * The live session the request's cookie names: not expired, not idle for too long, of an active user.
 * Refreshes its last-seen time now and then.
 */
export async function findSession(
  db: Database,
  config: SessionSettings,
  request: Request,
): Promise<StaffSession | undefined> {
  const token = await readToken(request, config);
  if (!token) return undefined;
  const idleCutoff = new Date(Date.now() - config.SESSION_IDLE_TIMEOUT);
  const [row] = await db
    .select({
      tokenHash: staffSessions.tokenHash,
      secondFactorPending: staffSessions.secondFactorPending,
      totpEnrolmentSecret: staffSessions.totpEnrolmentSecret,
      lastSeenAt: staffSessions.lastSeenAt,
      user: {
        id: staffUsers.id,
        username: staffUsers.username,
        displayName: staffUsers.displayName,
        role: staffUsers.role,
        totpSecret: staffUsers.totpSecret,
        totpLastUsedStep: staffUsers.totpLastUsedStep,
      },
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .where(
      and(
        eq(staffSessions.tokenHash, hashToken(token)),
        gt(staffSessions.expiresAt, sql`now()`),
        gt(staffSessions.lastSeenAt, idleCutoff),
        eq(staffUsers.isActive, true),
      ),
    );
  if (!row) return undefined;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(staffSessions).set({ lastSeenAt: new Date() }).where(eq(staffSessions.tokenHash, row.tokenHash));
  }
  const { lastSeenAt: _lastSeenAt, ...session } = row;
  return session;
}

/**
 * Counts a code tried on a half-way session before it is checked, in one statement, so parallel tries each get
 * their own number; the number this one is, or undefined when the session is gone.
 */
export async function countCodeAttempt(db: Database, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .update(staffSessions)
    .set({ codeAttempts: sql`${staffSessions.codeAttempts} + 1` })
    .where(and(eq(staffSessions.tokenHash, tokenHash), eq(staffSessions.secondFactorPending, true)))
    .returning({ codeAttempts: staffSessions.codeAttempts });
  return row?.codeAttempts;
}

/** Gives back a code attempt that was not checked (sign-in was locked). */
export async function uncountCodeAttempt(db: Database, tokenHash: string): Promise<void> {
  await db
    .update(staffSessions)
    .set({ codeAttempts: sql`greatest(${staffSessions.codeAttempts} - 1, 0)` })
    .where(eq(staffSessions.tokenHash, tokenHash));
}

/** Ends the request's session, if any, and returns the Set-Cookie header that clears the cookie. */
export async function endSession(db: Database, config: SessionSettings, request: Request): Promise<string> {
  const token = await readToken(request, config);
  if (token) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)));
  return sessionCookie(config).serialize("", { maxAge: 0 });
}

/**
 * Signs the staff user out everywhere (their own or an admin's request, a password reset, a lost second factor's
 * removal, a deactivation): every session, and the calendar address, which a calendar app reads without one and
 * which a lost phone would keep reading. Resolves with the sessions ended and whether a calendar address went.
 */
export async function signOutEverywhere(
  db: Database,
  userId: number,
): Promise<{ sessions: number; calendarAddress: boolean }> {
  return inTransaction(db, async (tx) => {
    const ended = await tx
      .delete(staffSessions)
      .where(eq(staffSessions.userId, userId))
      .returning({ tokenHash: staffSessions.tokenHash });
    return { sessions: ended.length, calendarAddress: await turnOffCalendarAddress(tx, userId) };
  });
}

/** Removes sessions nobody can use any more; called at sign-in, so the table does not grow without bound. */
export async function deleteExpiredSessions(db: Database, config: SessionSettings): Promise<void> {
  const idleCutoff = new Date(Date.now() - config.SESSION_IDLE_TIMEOUT);
  await db
    .delete(staffSessions)
    .where(or(lt(staffSessions.expiresAt, sql`now()`), lt(staffSessions.lastSeenAt, idleCutoff)));
}
