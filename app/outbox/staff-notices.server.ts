import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/services/db/database.server";
import { staffNotices } from "~/services/db/schema.server";
import type { EmailSender } from "./email-sender.server";
import { messageEmail } from "./message-email.server";

/** An email to a staff member about their own account, in plain words. */
export type StaffNotice = { recipient: string; subject: string; text: string };

/** How many notices one run claims, and how long a claim or the wait after a failed send lasts. */
const NOTICES_PER_RUN = 20;
const LEASE_SECONDS = 60;
const RETRY_AFTER_SECONDS = 5 * 60;
const MAX_ATTEMPTS = 8;

/** Stores notices to send; they are sent by the staff-notice job of whichever instance comes first. */
export async function queueStaffNotices(db: Database, notices: readonly StaffNotice[]): Promise<void> {
  if (notices.length > 0) await db.insert(staffNotices).values([...notices]);
}

/**
 * Sends the notices due, each claimed under a lease first (so two instances never send one at once, and one
 * that dies mid-send leaves it to the next run), and returns how many went. A notice a day old is no longer
 * news and is left unsent; a failed send is tried again after five minutes, eight times at most. Notices over
 * 30 days old are deleted.
 */
export async function sendDueStaffNotices(db: Database, emailSender: EmailSender): Promise<number> {
  await db.delete(staffNotices).where(lt(staffNotices.createdAt, sql`now() - interval '30 days'`));
  const due = db
    .select({ id: staffNotices.id })
    .from(staffNotices)
    .where(
      and(
        isNull(staffNotices.sentAt),
        gt(staffNotices.createdAt, sql`now() - interval '1 day'`),
        lt(staffNotices.attemptCount, MAX_ATTEMPTS),
        or(isNull(staffNotices.leaseExpiresAt), lt(staffNotices.leaseExpiresAt, sql`now()`)),
      ),
    )
    .orderBy(staffNotices.id)
    .limit(NOTICES_PER_RUN)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(staffNotices)
    .set({
      leaseExpiresAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
      attemptCount: sql`${staffNotices.attemptCount} + 1`,
    })
    .where(inArray(staffNotices.id, due))
    .returning({
      id: staffNotices.id,
      recipient: staffNotices.recipient,
      subject: staffNotices.subject,
      text: staffNotices.text,
    });
  let sent = 0;
  for (const notice of claimed) {
    const outcome = await emailSender.send(notice.recipient, messageEmail(notice));
    await db
      .update(staffNotices)
      .set(
        outcome.ok
          ? { sentAt: sql`now()`, lastError: null }
          : { lastError: outcome.error, leaseExpiresAt: sql`now() + make_interval(secs => ${RETRY_AFTER_SECONDS})` },
      )
      .where(eq(staffNotices.id, notice.id));
    if (outcome.ok) sent++;
  }
  return sent;
}
