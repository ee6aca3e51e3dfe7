import { and, eq } from "drizzle-orm";
import { hashToken, newPathToken } from "~/services/auth/secret-token.server";
import type { Database } from "~/services/db/database.server";
import { staffCalendarFeeds, staffUsers } from "~/services/db/schema.server";

/** The path of a calendar address: what a calendar app subscribes to. */
export const calendarFeedPath = (token: string) => `/calendar/${token}.ics`;

/** A token as the path carries it: 64 lower-case hex digits (newPathToken). */
const TOKEN_FILE = /^([0-9a-f]{64})\.ics$/;

/**
 * Makes the staff user a new calendar address and returns its token, the only time it is known: the database
 * keeps its SHA-256. A new one replaces the old, which stops working at once.
 */
export async function makeCalendarAddress(db: Database, userId: number): Promise<string> {
  const token = newPathToken();
  await db
    .insert(staffCalendarFeeds)
    .values({ userId, tokenHash: hashToken(token) })
    .onConflictDoUpdate({
      target: staffCalendarFeeds.userId,
      set: { tokenHash: hashToken(token), createdAt: new Date() },
    });
  return token;
}

/**
 * The staff user a calendar address belongs to, from the last part of its path (`<token>.ics`); undefined for
 * anything else, a replaced address, or an account deactivated or removed.
 */
export async function calendarOwnerOf(db: Database, file: string) {
  const token = TOKEN_FILE.exec(file)?.[1];
  if (!token) return undefined;
  const [owner] = await db
    .select({ id: staffUsers.id, role: staffUsers.role, displayName: staffUsers.displayName })
    .from(staffCalendarFeeds)
    .innerJoin(staffUsers, eq(staffUsers.id, staffCalendarFeeds.userId))
    .where(and(eq(staffCalendarFeeds.tokenHash, hashToken(token)), eq(staffUsers.isActive, true)));
  return owner;
}
