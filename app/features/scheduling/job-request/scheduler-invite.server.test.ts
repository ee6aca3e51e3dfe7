import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INVITE_OFFICE_EMAIL,
  type InviteWorld,
  inviteIn,
  schedulerEmailFor,
  startInviteWorld,
} from "#tests/received-invite";
import { validJobRequest } from "#tests/staff-request-fixture";
import { jobRequestForm } from "./definition";

const PATH = "/admin/quick-links/job-request";

let world: InviteWorld;
beforeAll(async () => {
  world = await startInviteWorld();
});
afterAll(() => world.close());

describe("the job request's all-day invite, as the scheduler's mail server receives it", () => {
  it("describes the job, the contact person and phone, the notes and the reference; the office organizes it", async () => {
    const { reference, message } = await schedulerEmailFor(world, jobRequestForm, PATH, validJobRequest);
    const invite = await inviteIn(message);

    expect(invite.event.startDate.isDate).toBe(true);
    expect(invite.event.description).toBe(
      [
        validJobRequest.jobSummary,
        `Contact: ${validJobRequest.contactPerson}, ${validJobRequest.phone}`,
        `Notes: ${validJobRequest.notes}`,
        `Reference: ${reference}`,
      ].join("\n"),
    );
    expect(invite.event.organizer).toBe(`mailto:${INVITE_OFFICE_EMAIL}`);
    expect(invite.replyTo).toEqual([INVITE_OFFICE_EMAIL]);
    expect(invite.ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });

  it("leaves out what was not given: the reference alone below the summary", async () => {
    const { reference, message } = await schedulerEmailFor(world, jobRequestForm, PATH, {
      jobName: validJobRequest.jobName,
      jobAddress: validJobRequest.jobAddress,
      jobSummary: validJobRequest.jobSummary,
      appointmentForJob: validJobRequest.appointmentForJob,
    });
    const invite = await inviteIn(message);

    expect(invite.event.description).toBe(`${validJobRequest.jobSummary}\nReference: ${reference}`);
  });
});
