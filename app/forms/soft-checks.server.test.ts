import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formActionHarness } from "#tests/form-action";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { validEstimateRequest } from "#tests/staff-request-fixture";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { estimateRequestForm } from "~/features/scheduling/estimate-request/definition";
import { startSession } from "~/services/auth/sessions.server";
import { submissions } from "~/services/db/schema.server";
import { companyToday } from "./company-day";
import {
  notBeforeToday,
  PAST_DATE_WARNING,
  SHORT_PHONE_WARNING,
  SOFT_CHECKS_MESSAGE,
  SOFT_CHECKS_SEEN_FIELD,
  softWarnings,
  tenDigitPhone,
  unseenWarnings,
} from "./soft-checks";
import { submitForm } from "./submit-form.server";

describe("the soft checks", () => {
  it("warn of a phone number with some digits but fewer than ten, in any punctuation", () => {
    expect(tenDigitPhone("555")).toBe(SHORT_PHONE_WARNING);
    expect(tenDigitPhone("(803) 555-01")).toBe(SHORT_PHONE_WARNING);
    expect(tenDigitPhone("(803) 555-0188")).toBeUndefined();
    expect(tenDigitPhone("+1 803 555 0188")).toBeUndefined();
    expect(tenDigitPhone("call the office")).toBeUndefined();
  });

  it("warn of a day before today on the company's calendar, not of today or a later one", () => {
    const today = companyToday();
    expect(notBeforeToday("2020-01-06")).toBe(PAST_DATE_WARNING);
    expect(notBeforeToday(today)).toBeUndefined();
    expect(notBeforeToday("2999-12-31")).toBeUndefined();
    expect(notBeforeToday("not a date")).toBeUndefined();
  });

  it("know today in America/New_York, not in the server's zone: 03:00 UTC is still yesterday there", () => {
    expect(companyToday(new Date("2026-03-10T03:00:00Z"))).toBe("2026-03-09");
    expect(companyToday(new Date("2026-03-10T05:00:00Z"))).toBe("2026-03-10");
  });

  it("name the fields a post warns of, less those its sender has seen", () => {
    const post = new URLSearchParams({ phone: " 555 ", appointment: "2020-01-06", jobName: "Gym" });
    expect(softWarnings(estimateRequestForm.fields, post)).toEqual({
      phone: SHORT_PHONE_WARNING,
      appointment: PAST_DATE_WARNING,
    });
    post.set(SOFT_CHECKS_SEEN_FIELD, "phone");
    expect(unseenWarnings(estimateRequestForm.fields, post)).toEqual({ appointment: PAST_DATE_WARNING });
    post.set(SOFT_CHECKS_SEEN_FIELD, "phone appointment");
    expect(unseenWarnings(estimateRequestForm.fields, post)).toEqual({});
  });
});

describe("a form's action with soft checks, against the database", () => {
  let database: TestDatabase;
  let cookie: string;
  const harness = formActionHarness({
    path: "/admin/quick-links/estimate-request",
    database: () => database.db,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    const staff = await addStaffUser(database.db);
    const context = harness.contextFor();
    cookie = cookieFrom(
      await startSession(database.db, context.config, { userId: staff.id, secondFactorPending: false }),
    );
  });
  afterAll(() => database.drop());

  const send = async (fields: Record<string, string>) => {
    const context = harness.contextFor();
    const response = await asStaffRoute(harness.post(fields, { headers: { cookie } }), context, (request, signedIn) =>
      submitForm(request, signedIn, estimateRequestForm),
    );
    return { status: response.init?.status ?? 200, answer: response.data as Record<string, unknown> };
  };

  const slipped = { ...validEstimateRequest, appointment: "2020-01-06", phone: "555" };
  const key = { submissionKey: "9b2f4c1e-3d5a-4f6b-8c7d-0e1f2a3b4c5d" };

  it("answers the warnings with every answer kept and stores nothing, then stores the same answers once seen", async () => {
    const first = await send({ ...slipped, ...key });
    expect(first.status).toBe(400);
    expect(first.answer).toMatchObject({
      status: "invalid",
      message: SOFT_CHECKS_MESSAGE,
      problems: {},
      warnings: { appointment: PAST_DATE_WARNING, phone: SHORT_PHONE_WARNING },
      result: { initialValue: { phone: "555", appointment: "2020-01-06", jobName: slipped.jobName } },
    });
    expect(await database.db.$count(submissions)).toBe(0);

    const partly = await send({ ...slipped, ...key, [SOFT_CHECKS_SEEN_FIELD]: "phone" });
    expect(partly.answer).toMatchObject({ status: "invalid", warnings: { appointment: PAST_DATE_WARNING } });
    expect(await database.db.$count(submissions)).toBe(0);

    const seen = { ...slipped, ...key, [SOFT_CHECKS_SEEN_FIELD]: "phone appointment" };
    const second = await send(seen);
    expect(second.answer).toMatchObject({ status: "success" });
    const reference = String(second.answer.reference);
    const stored = await storedByReference(database.db, reference);
    expect(stored.submission.payload).toMatchObject({ phone: "555", appointment: "2020-01-06" });

    // The same key and answers again (a lost answer, sent again): the stored one, not a second.
    const again = await send(seen);
    expect(again.answer).toMatchObject({ status: "success", reference });
    expect(await database.db.$count(submissions)).toBe(1);
  });

  it("shows the warnings with the form's own problems, so the post that puts them right sends", async () => {
    const { jobName: _left, ...withoutJobName } = slipped;
    const first = await send(withoutJobName);
    expect(first.answer).toMatchObject({
      status: "invalid",
      problems: { jobName: expect.any(String) },
      warnings: { appointment: PAST_DATE_WARNING, phone: SHORT_PHONE_WARNING },
    });
  });

  it("sends answers with nothing to warn of on the first post", async () => {
    const { answer } = await send({ ...validEstimateRequest });
    expect(answer).toMatchObject({ status: "success" });
    expect(answer).not.toHaveProperty("warnings");
  });
});
