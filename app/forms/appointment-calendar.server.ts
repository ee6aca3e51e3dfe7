import ical, { type ICalCalendar, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { DateTime } from "luxon";
import { company } from "~/content/company";
import { currentSiteContent } from "~/services/site-content/site-content-cache.server";
import type { AppointmentEvent } from "./definition";
import { vtimezoneOf } from "./vtimezone.server";

/** An appointment with a time lasts this long in the calendar; the office moves it in its calendar if need be. */
const APPOINTMENT_HOURS = 1;

/** The calendar's producer and the events' UIDs stay as they were when the company's facts are edited: calendars know an event again by them. */
const PRODUCT_ID = { company: company.name, product: "Website", language: "EN" };

/** One submission's appointment, with what a calendar needs to know it again: its reference. */
type Appointment = { event: AppointmentEvent; reference: string };

/**
 * Puts a submission's appointment in a calendar: the one event the invite and the staff's calendar feeds both
 * carry. The date and time are the company's wall clock (America/New_York), read by luxon whatever the server's
 * own zone; a date without a time is an all-day event. The UID comes from the reference, so one request is
 * always the same event, in every invite and every feed.
 */
function addAppointment(calendar: ICalCalendar, { event, reference }: Appointment) {
  const start = DateTime.fromISO(event.time ? `${event.date}T${event.time}` : event.date, { zone: company.timeZone });
  return calendar.createEvent({
    id: `${reference}@${company.email.split("@")[1]}`,
    start,
    ...(event.time ? { end: start.plus({ hours: APPOINTMENT_HOURS }) } : { allDay: true }),
    summary: event.title,
    location: event.location,
    description: appointmentDescription(event, reference),
  });
}

/** iCalendar text ends each content line with CRLF (RFC 5545), the last one too. */
function icsText(calendar: ICalCalendar): string {
  const text = calendar.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

/**
 * The invite (RFC 5545, METHOD:REQUEST) of an appointment, which Outlook, Google Calendar and Apple Calendar offer
 * to add. Its times are instants in UTC. The organizer is the address that gets Accept and Decline.
 */
export function appointmentInvite(
  event: AppointmentEvent,
  options: { reference: string; organizer: string; attendee: string },
): string {
  const calendar = ical({ method: ICalCalendarMethod.REQUEST, prodId: PRODUCT_ID });
  addAppointment(calendar, { event, reference: options.reference })
    .organizer({ name: currentSiteContent().content.company.name, email: options.organizer })
    .attendees([{ email: options.attendee, rsvp: true }]);
  return icsText(calendar);
}

/** An appointment as a feed lists it: cancelled or not, and how often and when its submission last changed. */
export type FeedAppointment = Appointment & { cancelled: boolean; sequence: number; lastModified: Date };

/**
 * A calendar that calendar apps subscribe to (METHOD:PUBLISH): every appointment at the company's wall clock,
 * TZID=America/New_York with its VTIMEZONE, so a time stays 09:00 on either side of a clock change. An app
 * replaces an event by its UID when SEQUENCE or LAST-MODIFIED moves on; a cancelled one stays, marked
 * STATUS:CANCELLED, so an app that already has it takes it off.
 */
export function appointmentFeed(name: string, appointments: readonly FeedAppointment[]): string {
  const calendar = ical({
    name,
    method: ICalCalendarMethod.PUBLISH,
    prodId: PRODUCT_ID,
    // The zone is each event's: a zone named on the calendar would turn DTSTAMP and LAST-MODIFIED, which must be
    // UTC, into local times too. The generator still writes the VTIMEZONE of the events' zone.
    timezone: { name: null, generator: vtimezoneOf },
  });
  for (const appointment of appointments) {
    addAppointment(calendar, appointment)
      .timezone(company.timeZone)
      .status(appointment.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED)
      .sequence(appointment.sequence)
      .lastModified(appointment.lastModified)
      .stamp(appointment.lastModified);
  }
  return icsText(calendar);
}

/** The work, then what the project manager needs on site (contact, notes), then the submission's reference. */
function appointmentDescription(event: AppointmentEvent, reference: string): string {
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
