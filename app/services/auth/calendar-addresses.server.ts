import { eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { staffCalendarFeeds } from "../db/schema.server";

/*
 * A staff user's calendar address (app/features/calendar-feed/) is read by calendar apps without a session, so
 * it is a way into the appointments that outlives every sign-in: its owner and admins turn it off, and it goes
 * wherever all of a person's sessions are ended (sessions.server.ts, signOutEverywhere).
 */

/** When the staff user's calendar address was made; undefined without one. */
export async function calendarAddressMadeAt(db: Database, userId: number): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: staffCalendarFeeds.createdAt })
    .from(staffCalendarFeeds)
    .where(eq(staffCalendarFeeds.userId, userId));
  return row?.createdAt;
}

/** Turns the staff user's calendar address off: it answers 404 from now on. Whether there was one. */
export async function turnOffCalendarAddress(db: Pick<Database, "delete">, userId: number): Promise<boolean> {
  const removed = await db
    .delete(staffCalendarFeeds)
    .where(eq(staffCalendarFeeds.userId, userId))
    .returning({ userId: staffCalendarFeeds.userId });
  return removed.length > 0;
}
