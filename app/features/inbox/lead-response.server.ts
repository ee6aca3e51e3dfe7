import { and, asc, count, eq, gte, isNull, lt, not, or, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { company } from "~/content/company";
import { plural } from "~/content/plural";
import type { Config } from "~/services/config.server";
import type { Database } from "~/services/db/database.server";
import { submissionEvents, submissions } from "~/services/db/schema.server";
import { inboxQuery } from "./inbox-filters";
import { leadType, stillNewLeadsWhere, waitingLeadsWhere, waitingTime } from "./waiting-leads.server";

/** How many of the leads waiting too long the dashboard names; the inbox link lists them all. */
const WAITING_SHOWN = 5;

/** How fast leads are answered, as the dashboard says it: sentences made on the server, links for the waiting. */
export type LeadResponse = {
  /** "Median time to first answer this week: 12 min (9 leads)." or what stands in its place. */
  median: string;
  /** What the median leaves out: this week's leads without an answer yet; empty when none. */
  unanswered: string;
  waiting: {
    summary: string;
    oldest: Array<{ id: number; reference: string; name: string; waited: string }>;
    href: string;
  };
};

/** "12 min", "3 h 5 min", "2 days 4 h": a wait as the dashboard shows it, to the minute. */
export function formatWait(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? plural(days, "day", "days") : `${plural(days, "day", "days")} ${hours % 24} h`;
}

/**
 * How fast the leads (the public estimate requests, not spam) are answered: the median time from a lead's
 * arrival to its first status change, over the leads that came in this week (since Monday 00:00, New York
 * time), and the leads still new after INBOX_ALERT_AFTER, the setting of the dashboard's waiting-lead alert.
 */
export async function loadLeadResponse(
  db: Database,
  config: Pick<Config, "INBOX_ALERT_AFTER">,
  now = new Date(),
): Promise<LeadResponse> {
  const leads = leadType();
  const weekStart = DateTime.fromJSDate(now, { zone: company.timeZone }).startOf("week").toJSDate();
  const firstAnswer = db
    .select({
      submissionId: submissionEvents.submissionId,
      at: sql<Date>`min(${submissionEvents.createdAt})`.as("first_answer_at"),
    })
    .from(submissionEvents)
    .where(eq(submissionEvents.kind, "status"))
    .groupBy(submissionEvents.submissionId)
    .as("first_answer");
  const [[week], [waitingCount], oldest] = await Promise.all([
    db
      .select({
        arrived: count(),
        answered: count(firstAnswer.at),
        medianSeconds: sql<
          number | null
        >`percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ${firstAnswer.at} - ${submissions.createdAt}))`.mapWith(
          (value) => (value === null ? null : Number(value)),
        ),
      })
      .from(submissions)
      .leftJoin(firstAnswer, eq(firstAnswer.submissionId, submissions.id))
      .where(
        and(
          eq(submissions.type, leads.type),
          not(submissions.isSpam),
          gte(submissions.createdAt, weekStart),
          lt(submissions.createdAt, now),
        ),
      ),
    db.select({ count: count() }).from(submissions).where(waitingLeadsWhere(config.INBOX_ALERT_AFTER, now)),
    db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        name: submissions.contactName,
        createdAt: submissions.createdAt,
      })
      .from(submissions)
      .where(waitingLeadsWhere(config.INBOX_ALERT_AFTER, now))
      .orderBy(asc(submissions.createdAt))
      .limit(WAITING_SHOWN),
  ]);
  const arrived = week?.arrived ?? 0;
  const answered = week?.answered ?? 0;
  const waiting = waitingCount?.count ?? 0;
  const after = waitingTime(config.INBOX_ALERT_AFTER);
  return {
    median:
      arrived === 0
        ? "No leads have come in this week yet."
        : answered === 0 || week?.medianSeconds == null
          ? `Median time to first answer this week: none yet (${plural(arrived, "lead", "leads")}, none answered).`
          : `Median time to first answer this week: ${formatWait(week.medianSeconds)} (${plural(answered, "lead", "leads")}).`,
    unanswered:
      arrived > answered && answered > 0
        ? `${plural(arrived - answered, "lead", "leads")} of this week not answered yet, left out of the median.`
        : "",
    waiting: {
      summary:
        waiting === 0
          ? `No lead has waited more than ${after} without an answer.`
          : `${plural(waiting, "lead has", "leads have")} waited more than ${after} without an answer.`,
      oldest: oldest.map((lead) => ({
        id: lead.id,
        reference: lead.reference,
        name: lead.name,
        waited: formatWait((now.getTime() - lead.createdAt.getTime()) / 1000),
      })),
      href: `/admin/inbox${inboxQuery({ type: leads.type, status: leads.newStatus })}`,
    },
  };
}

/** How many of the leads waiting on a person Quick Links lists: a 360 px phone's first screen holds two and the tools. */
const WAITING_ON_YOU_SHOWN = 2;

/** The leads a staff member should answer next, and how many leads are still new in all. */
export type LeadsWaitingOnYou = {
  newLeads: number;
  leads: Array<{
    id: number;
    name: string;
    phone: string;
    email: string;
    assignedToYou: boolean;
    waited: string;
  }>;
  href: string;
};

/**
 * The leads still new (not answered, not spam) that wait on this person: those assigned to them, then those
 * assigned to no one, the longest waiting first in each.
 */
export async function loadLeadsWaitingOn(
  db: Database,
  staffUserId: number,
  now = new Date(),
): Promise<LeadsWaitingOnYou> {
  const leads = leadType();
  const assignedToYou = eq(submissions.assigneeId, staffUserId);
  const [[all], rows] = await Promise.all([
    db.select({ count: count() }).from(submissions).where(stillNewLeadsWhere()),
    db
      .select({
        id: submissions.id,
        name: submissions.contactName,
        phone: submissions.contactPhone,
        email: submissions.contactEmail,
        assignedToYou: sql<boolean>`${assignedToYou}`,
        createdAt: submissions.createdAt,
      })
      .from(submissions)
      .where(and(stillNewLeadsWhere(), or(assignedToYou, isNull(submissions.assigneeId))))
      .orderBy(sql`${submissions.assigneeId} IS NULL`, asc(submissions.createdAt))
      .limit(WAITING_ON_YOU_SHOWN),
  ]);
  return {
    newLeads: all?.count ?? 0,
    leads: rows.map(({ createdAt, ...lead }) => ({
      ...lead,
      waited: formatWait((now.getTime() - createdAt.getTime()) / 1000),
    })),
    href: `/admin/inbox${inboxQuery({ type: leads.type, status: leads.newStatus })}`,
  };
}
