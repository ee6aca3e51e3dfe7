import { and, count, eq, gt, inArray, not } from "drizzle-orm";
import { mayReadSubmissionsOf, submissionTypes } from "~/features/submission-types.server";
import { appointmentFeed, type FeedAppointment } from "~/forms/appointment-calendar.server";
import type { AnyFormDefinition } from "~/forms/definition";
import type { Database } from "~/services/db/database.server";
import type { StaffRole } from "~/services/db/schema.server";
import { submissionEvents, submissions } from "~/services/db/schema.server";
import { currentSiteContent } from "~/services/site-content/site-content-cache.server";
import { calendarOwnerOf } from "./calendar-address.server";

/** How far back the feed reaches, by when a request came in: a year of appointments, not the whole history. */
const FEED_DAYS = 366;

const NOT_FOUND = "No calendar at this address. Make a new one on the staff area's Your settings page.\n";

/**
 * `GET /calendar/<token>.ics`: the calendar of the staff user whose address it is, for calendar apps, which fetch
 * without cookies. Anything else (an unknown or replaced address, an account turned off) is a 404.
 */
export async function serveCalendarFeed(db: Database, file: string): Promise<Response> {
  const owner = await calendarOwnerOf(db, file);
  if (!owner) {
    return new Response(NOT_FOUND, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(await calendarFeedFor(db, owner), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Content-Disposition": 'inline; filename="appointments.ics"',
    },
  });
}

/**
 * The appointments a staff user sees in their calendar: those of every form that declares a calendar event and
 * whose submissions their role may read (the inbox's rule), from requests that are not spam. A request in one of
 * its form's cancelled statuses stays, marked cancelled; each status change moves its SEQUENCE on.
 */
export async function calendarFeedFor(
  db: Database,
  owner: { role: StaffRole; displayName: string },
  forms: readonly AnyFormDefinition[] = submissionTypes,
  now = new Date(),
): Promise<string> {
  const readable = new Map(
    forms
      .filter((form) => form.calendarEvent && mayReadSubmissionsOf(form.type, owner.role))
      .map((form) => [form.type, form]),
  );
  const name = `${currentSiteContent().content.company.shortName} appointments (${owner.displayName})`;
  if (readable.size === 0) return appointmentFeed(name, []);
  const statusChanges = db
    .select({ submissionId: submissionEvents.submissionId, changes: count().as("changes") })
    .from(submissionEvents)
    .where(eq(submissionEvents.kind, "status"))
    .groupBy(submissionEvents.submissionId)
    .as("status_changes");
  const rows = await db
    .select({
      reference: submissions.reference,
      type: submissions.type,
      payload: submissions.payload,
      status: submissions.status,
      statusChangedAt: submissions.statusChangedAt,
      changes: statusChanges.changes,
    })
    .from(submissions)
    .leftJoin(statusChanges, eq(statusChanges.submissionId, submissions.id))
    .where(
      and(
        inArray(submissions.type, [...readable.keys()]),
        not(submissions.isSpam),
        gt(submissions.createdAt, new Date(now.getTime() - FEED_DAYS * 86_400_000)),
      ),
    )
    .orderBy(submissions.createdAt);
  const appointments = rows.flatMap((row): FeedAppointment[] => {
    const form = readable.get(row.type);
    const event = form?.calendarEvent?.(row.payload);
    if (!form || !event) return [];
    return [
      {
        event,
        reference: row.reference,
        cancelled: form.cancelledStatuses?.includes(row.status) ?? false,
        sequence: row.changes ?? 0,
        lastModified: row.statusChangedAt,
      },
    ];
  });
  return appointmentFeed(name, appointments);
}
