import ical, { ICalCalendarMethod } from "ical-generator";
import { DateTime } from "luxon";
import { company } from "~/content/company";
import type { AppointmentEvent } from "./definition";

/** An appointment with a time lasts this long in the invite; the office moves it in its calendar if need be. */
const APPOINTMENT_HOURS = 1;

/**
 * The iCalendar text (RFC 5545, METHOD:REQUEST) of an appointment, which Outlook, Google Calendar and Apple
 * Calendar offer to add. The date and time are the company's wall clock (America/New_York), turned into an
 * instant by luxon whatever the server's own zone; a date without a time is an all-day event. The UID comes
 * from the reference, so the same request always makes the same event. The organizer is the address that gets
 * Accept and Decline. The text ends with CRLF, as RFC 5545 has every content line end.
 */
export function appointmentInvite(
  event: AppointmentEvent,
  options: { reference: string; organizer: string; attendee: string },
): string {
  const calendar = ical({
    method: ICalCalendarMethod.REQUEST,
    prodId: { company: company.name, product: "Website", language: "EN" },
  });
  const timing = event.time
    ? (() => {
        const start = DateTime.fromISO(`${event.date}T${event.time}`, { zone: company.timeZone });
        return { start, end: start.plus({ hours: APPOINTMENT_HOURS }) };
      })()
    : { start: DateTime.fromISO(event.date, { zone: "utc" }), allDay: true };
  calendar.createEvent({
    id: `${options.reference}@${company.email.split("@")[1]}`,
    ...timing,
    summary: event.title,
    location: event.location,
    description: inviteDescription(event, options.reference),
    organizer: { name: company.name, email: options.organizer },
    attendees: [{ email: options.attendee, rsvp: true }],
  });
  const text = calendar.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

/** The work, then what the project manager needs on site (contact, notes), then the submission's reference. */
function inviteDescription(event: AppointmentEvent, reference: string): string {
  const contact = [event.contactPerson, event.contactPhone].filter(Boolean).join(", ");
  return [
    event.description,
    contact && `Contact: ${contact}`,
    event.notes && `Notes: ${event.notes}`,
    `Reference: ${reference}`,
  ]
    .filter(Boolean)
    .join("\n");
}
