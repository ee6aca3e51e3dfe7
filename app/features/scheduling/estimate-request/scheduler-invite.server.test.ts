import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INVITE_OFFICE_EMAIL,
  INVITE_SCHEDULER_EMAIL,
  type InviteWorld,
  inviteIn,
  schedulerEmailFor,
  startInviteWorld,
} from "#tests/received-invite";
import { validEstimateRequest } from "#tests/staff-request-fixture";
import { estimateRequestForm } from "./definition";

let world: InviteWorld;
beforeAll(async () => {
  world = await startInviteWorld();
});
afterAll(() => world.close());

describe("the estimate request's invite, as the scheduler's mail server receives it", () => {
  let reference: string;
  let invite: Awaited<ReturnType<typeof inviteIn>>;

  beforeAll(async () => {
    const received = await schedulerEmailFor(
      world,
      estimateRequestForm,
      "/admin/quick-links/estimate-request",
      validEstimateRequest,
    );
    reference = received.reference;
    invite = await inviteIn(received.message);
  }, 60_000);

  it("describes the work, the contact person and phone, the notes and the reference", () => {
    expect(invite.event.description).toBe(
      [
        validEstimateRequest.description,
        `Contact: ${validEstimateRequest.contactPerson}, ${validEstimateRequest.phone}`,
        `Notes: ${validEstimateRequest.notes}`,
        `Reference: ${reference}`,
      ].join("\n"),
    );
  });

  it("is organized by the office, and the email's replies go there too, not to the sending address", () => {
    expect(invite.method).toBe("REQUEST");
    expect(invite.event.organizer).toBe(`mailto:${INVITE_OFFICE_EMAIL}`);
    expect(invite.event.attendees.map((attendee) => String(attendee.getFirstValue()).toLowerCase())).toEqual([
      `mailto:${INVITE_SCHEDULER_EMAIL}`,
    ]);
    expect(invite.replyTo).toEqual([INVITE_OFFICE_EMAIL]);
  });

  it("ends its text with CRLF, as RFC 5545 ends every line", () => {
    expect(invite.ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });
});
