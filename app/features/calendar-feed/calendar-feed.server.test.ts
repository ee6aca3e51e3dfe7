import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import nodeIcal, { type VEvent } from "node-ical";
import { beforeAll, describe, expect, it } from "vitest";
import { addStaffUser } from "#tests/staff";
import { storedJobRequest, validEstimateRequest } from "#tests/staff-request-fixture";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { changeSubmissionStatus } from "~/features/inbox/submission-workflow.server";
import { type PeerReview, peerReviewForm } from "~/features/peer-review/definition";
import { APPOINTMENT_STATUS } from "~/features/scheduling/appointment-statuses";
import { estimateRequestForm } from "~/features/scheduling/estimate-request/definition";
import { jobRequestForm } from "~/features/scheduling/job-request/definition";
import { submissionTypes } from "~/features/submission-types.server";
import type { AnyFormDefinition } from "~/forms/definition";
import { storeSubmission } from "~/outbox/submission-store.server";
import { setStaffUserActive } from "~/services/auth/staff-users.server";
import { submissions } from "~/services/db/schema.server";
import { calendarFeedPath, makeCalendarAddress } from "./calendar-address.server";
import { calendarFeedFor, serveCalendarFeed } from "./calendar-feed.server";

const state = staffTestDatabaseForFile();
const db = () => state.database.db;

/** The file part of an address's path, as the route's `:file` parameter gets it. */
const fileOf = (token: string) => calendarFeedPath(token).split("/").pop() ?? "";

function store(definition: AnyFormDefinition, payload: Record<string, unknown>) {
  return storeSubmission(db(), { definition, submissionKey: randomUUID(), payload, deliveries: () => [] });
}

const estimateAt = (appointment: string, appointmentTime: string) =>
  store(estimateRequestForm, { ...validEstimateRequest, appointment, appointmentTime });

/** The peer review as a form that would put its date in calendars: only admins may read peer reviews. */
const peerReviewWithEvent: AnyFormDefinition = {
  ...peerReviewForm,
  calendarEvent: (review: PeerReview) => ({
    title: `Review of ${review.reviewFor}`,
    location: "Office",
    date: review.date,
  }),
};
const formsWithReviewEvents = submissionTypes.map((form) =>
  form.type === peerReviewForm.type ? peerReviewWithEvent : form,
);

/** Each event of a feed by its UID, as ical.js reads it (the feed's VTIMEZONE registered, as a calendar app does). */
function readWithIcalJs(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  return new Map(
    calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent);
      return [event.uid, { event, vevent }] as const;
    }),
  );
}

function readWithNodeIcal(ics: string): Map<string, VEvent> {
  return new Map(
    Object.values(nodeIcal.sync.parseICS(ics))
      .filter((component): component is VEvent => component?.type === "VEVENT")
      .map((event) => [event.uid, event]),
  );
}

const uidOf = (reference: string) => `${reference}@example.com`;

describe("a staff user's calendar feed", () => {
  const references = {} as Record<
    "beforeFallBack" | "afterFallBack" | "beforeSpringForward" | "afterSpringForward" | "job" | "review" | "spam",
    string
  >;
  let staffFeed: string;
  let adminFeed: string;
  let cancelledChangedAt: Date;

  beforeAll(async () => {
    references.beforeFallBack = (await estimateAt("2026-10-31", "09:00")).reference;
    references.afterFallBack = (await estimateAt("2026-11-01", "09:00")).reference;
    references.beforeSpringForward = (await estimateAt("2027-03-13", "09:00")).reference;
    references.afterSpringForward = (await estimateAt("2027-03-14", "09:00")).reference;
    references.job = (await store(jobRequestForm, { ...storedJobRequest, appointmentForJob: "2026-11-01" })).reference;
    references.spam = (await estimateAt("2026-11-02", "10:00")).reference;
    await db().update(submissions).set({ isSpam: true }).where(eq(submissions.reference, references.spam));
    const review: PeerReview = { reviewFor: "Robin Smith", date: "2026-11-03", answers: [], average: "4.0" };
    references.review = (await store(peerReviewForm, review)).reference;

    const [cancelled] = await db()
      .select({ id: submissions.id })
      .from(submissions)
      .where(eq(submissions.reference, references.afterSpringForward));
    if (!cancelled) throw new Error("not stored");
    for (const status of [APPOINTMENT_STATUS.scheduled, APPOINTMENT_STATUS.cancelled]) {
      await changeSubmissionStatus(db(), { submissionId: cancelled.id, actorId: state.actorId, status });
    }
    const [changed] = await db()
      .select({ at: submissions.statusChangedAt })
      .from(submissions)
      .where(eq(submissions.id, cancelled.id));
    cancelledChangedAt = changed?.at ?? new Date(0);

    staffFeed = await calendarFeedFor(db(), { role: "staff", displayName: "Sam" }, formsWithReviewEvents);
    adminFeed = await calendarFeedFor(db(), { role: "admin", displayName: "Ada" }, formsWithReviewEvents);
  });

  it("puts 09:00 New York at 13:00Z in summer time and 14:00Z in winter, across both clock changes, for both parsers", () => {
    const expected = {
      [references.beforeFallBack]: "2026-10-31T13:00:00.000Z",
      [references.afterFallBack]: "2026-11-01T14:00:00.000Z",
      [references.beforeSpringForward]: "2027-03-13T14:00:00.000Z",
      [references.afterSpringForward]: "2027-03-14T13:00:00.000Z",
    };
    const icalJs = readWithIcalJs(staffFeed);
    const nodeIcalEvents = readWithNodeIcal(staffFeed);
    for (const [reference, start] of Object.entries(expected)) {
      expect(icalJs.get(uidOf(reference))?.event.startDate.toJSDate().toISOString(), reference).toBe(start);
      expect(nodeIcalEvents.get(uidOf(reference))?.start.toISOString(), reference).toBe(start);
      expect(icalJs.get(uidOf(reference))?.event.startDate.zone?.tzid).toBe("America/New_York");
      expect(icalJs.get(uidOf(reference))?.event.duration.toSeconds()).toBe(3600);
    }
  });

  it("carries the on-site details the invite carries, and the job request as an all-day event", () => {
    const events = readWithIcalJs(staffFeed);
    const estimate = events.get(uidOf(references.afterFallBack))?.event;
    expect(estimate?.summary).toBe(validEstimateRequest.jobName);
    expect(estimate?.location).toBe(validEstimateRequest.jobAddress);
    expect(estimate?.description).toBe(
      [
        validEstimateRequest.description,
        `Contact: ${validEstimateRequest.contactPerson}, ${validEstimateRequest.phone}`,
        `Notes: ${validEstimateRequest.notes}`,
        `Reference: ${references.afterFallBack}`,
      ].join("\n"),
    );
    const job = events.get(uidOf(references.job))?.event;
    expect(job?.startDate.isDate).toBe(true);
    expect(job?.startDate.toString()).toBe("2026-11-01");
    expect(readWithNodeIcal(staffFeed).get(uidOf(references.job))?.datetype).toBe("date");
  });

  it("marks a cancelled request STATUS:CANCELLED, its SEQUENCE counting the status changes, LAST-MODIFIED the last one", () => {
    const events = readWithIcalJs(staffFeed);
    const cancelled = events.get(uidOf(references.afterSpringForward));
    expect(cancelled?.vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancelled?.event.sequence).toBe(2);
    const lastModified = cancelled?.vevent.getFirstPropertyValue("last-modified") as ICAL.Time | undefined;
    expect(lastModified?.toJSDate().toISOString()).toBe(
      new Date(Math.floor(cancelledChangedAt.getTime() / 1000) * 1000).toISOString(),
    );
    expect(events.get(uidOf(references.afterFallBack))?.vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(events.get(uidOf(references.afterFallBack))?.event.sequence).toBe(0);
    expect(readWithNodeIcal(staffFeed).get(uidOf(references.afterSpringForward))?.status).toBe("CANCELLED");
  });

  it("never lists a submission the user may not read: an admin gets the peer review's event, a staff user does not", () => {
    expect([...readWithIcalJs(adminFeed).keys()]).toContain(uidOf(references.review));
    expect([...readWithIcalJs(staffFeed).keys()]).not.toContain(uidOf(references.review));
    expect([...readWithNodeIcal(staffFeed).keys()]).not.toContain(uidOf(references.review));
    expect(staffFeed).not.toContain("Robin Smith");
  });

  it("leaves out spam", () => {
    expect([...readWithIcalJs(adminFeed).keys()]).not.toContain(uidOf(references.spam));
  });

  it("answers text/calendar at the user's address, and 404 at a replaced one, an unknown one, or a turned-off account's", async () => {
    const user = await addStaffUser(db());
    const first = await makeCalendarAddress(db(), user.id);
    const answer = await serveCalendarFeed(db(), fileOf(first));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(readWithNodeIcal(await answer.text()).has(uidOf(references.afterFallBack))).toBe(true);

    const second = await makeCalendarAddress(db(), user.id);
    expect(second).not.toBe(first);
    expect((await serveCalendarFeed(db(), fileOf(first))).status).toBe(404);
    expect((await serveCalendarFeed(db(), fileOf(second))).status).toBe(200);
    for (const file of ["nothing.ics", `${"0".repeat(64)}.ics`, fileOf(second).replace(".ics", ""), ""]) {
      expect((await serveCalendarFeed(db(), file)).status, file).toBe(404);
    }

    await setStaffUserActive(db(), user.id, false);
    expect((await serveCalendarFeed(db(), fileOf(second))).status).toBe(404);
  });
});
