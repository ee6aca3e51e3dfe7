import { randomBytes } from "node:crypto";
import fc from "fast-check";
import ICAL from "ical.js";
import { simpleParser } from "mailparser";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { addStaffUser } from "#tests/staff";
import { asStaffRoute, staffRequest } from "#tests/staff-request";
import {
  ESTIMATE_REQUEST_WEBHOOK_KEYS,
  JOB_REQUEST_WEBHOOK_KEYS,
  storedJobRequest,
  validEstimateRequest,
  validJobRequest,
} from "#tests/staff-request-fixture";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { loadInbox } from "~/features/inbox/load-inbox.server";
import { describeSubmissionType } from "~/features/submission-types.server";
import type { FormActionResult } from "~/forms/action-result";
import { PAST_DATE_WARNING, SOFT_CHECKS_SEEN_FIELD } from "~/forms/soft-checks";
import { createEmailSender } from "~/outbox/email-sender.server";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { action as estimateRequestAction } from "~/routes/admin/estimate-request";
import { action as jobRequestAction } from "~/routes/admin/job-request";
import { connectDatabase } from "~/services/db/database.server";

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

let database: TestDatabase;
let hooks: WebhookReceiver;
let smtp: SmtpReceiver;
let staffId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  [hooks, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
  staffId = (await addStaffUser(database.db)).id;
});
afterAll(async () => {
  await Promise.all([hooks.close(), smtp.close()]);
  await database.drop();
});

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

function contextFor(): AppLoadContext {
  return loadContextFor(database.db, {
    WEBHOOK_ESTIMATE_INTERNAL_URL: `${hooks.url}estimate-internal`,
    WEBHOOK_JOB_REQUEST_URL: `${hooks.url}job-request`,
    WEBHOOK_SECRET: SECRET,
    SMTP_URL: smtp.smtpUrl,
    MAIL_FROM: "Website <website@example.com>",
    ESTIMATE_SCHEDULER_EMAIL: "pm@example.com",
    DELIVERY_RETRY_SCHEDULE: "0,100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms",
  });
}

const FORMS = {
  estimate: { action: estimateRequestAction, path: "/admin/quick-links/estimate-request" },
  job: { action: jobRequestAction, path: "/admin/quick-links/job-request" },
} as const;

/** The route's own action, called as React Router calls it: only the request and the context are read. */
function callAction(form: keyof typeof FORMS, request: Request, context: AppLoadContext) {
  return FORMS[form].action({ request, url: new URL(request.url), pattern: "", context, params: {} });
}

async function submit(form: keyof typeof FORMS, fields: Record<string, string>, context = contextFor()) {
  const body = new URLSearchParams(fields);
  const request = await staffRequest(context, staffId, FORMS[form].path, { method: "POST", body });
  const response = await callAction(form, request, context);
  return { status: response.init?.status ?? 200, result: response.data as FormActionResult };
}

/** Sends what is due until `done`, with the worker as the app runs it: real SMTP, real webhooks. */
async function deliverUntil(context: AppLoadContext, done: () => Promise<boolean> | boolean) {
  const worker = createDeliveryWorker({
    db: database.db,
    config: context.config,
    logger: pino({ level: "silent" }),
    emailSender: createEmailSender(smtp.smtpUrl, "Website <website@example.com>"),
  });
  try {
    await waitFor("the deliveries", async () => {
      await worker.runOnce();
      return done();
    });
  } finally {
    await worker.stop();
  }
}

/** The appointment of the invite in a received email: its start (an ical.js Time) and whether it is all day. */
async function inviteIn(raw: string) {
  const parsed = await simpleParser(raw);
  const calendarPart =
    parsed.attachments.find((attachment) => attachment.contentType.startsWith("text/calendar")) ?? undefined;
  const text = calendarPart ? calendarPart.content.toString("utf8") : undefined;
  if (!text) throw new Error(`no text/calendar part in: ${raw.slice(0, 400)}`);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent("vevent");
  if (!vevent) throw new Error("no VEVENT in the invite");
  const event = new ICAL.Event(vevent);
  return { method: calendar.getFirstPropertyValue("method"), event, parsed };
}

const referenceOf = (result: FormActionResult) => {
  if (result.status !== "success") throw new Error(`not stored: ${JSON.stringify(result)}`);
  return result.reference;
};

describe("the internal estimate request", () => {
  it("posts exactly spec §3's thirteen strings, signed, after the receiver was down, and invites the PM for 14:30 New York time", async () => {
    process.env.TZ = "UTC";
    await hooks.stop();
    const context = contextFor();
    const { status, result } = await submit("estimate", validEstimateRequest, context);
    expect(status).toBe(200);
    const reference = referenceOf(result);
    expect(reference).toMatch(/^ERQ-[0-9A-Z]{6}$/);
    const stored = await storedByReference(database.db, reference);
    expect(stored.submission).toMatchObject({ type: "estimate-request", status: "Requested", submittedById: staffId });

    // The receiver is down for the first attempts; the email goes regardless.
    await deliverUntil(context, () => smtp.messages.some((message) => message.subject?.includes(reference)));
    await hooks.start();
    await deliverUntil(context, () => hooks.requests.some((request) => request.path === "/estimate-internal"));

    const [request] = hooks.requests.filter((candidate) => candidate.path === "/estimate-internal");
    if (!request) throw new Error("no webhook");
    const body = JSON.parse(request.body);
    expect(body).toEqual(validEstimateRequest);
    expect(Object.keys(body)).toEqual(ESTIMATE_REQUEST_WEBHOOK_KEYS);
    expect(Object.values(body).every((value) => typeof value === "string")).toBe(true);
    const headers = {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    };
    expect(new Webhook(SECRET).verify(request.body, headers)).toEqual(body);
    expect(stored.deliveries[0]?.webhookId).toBe(headers["webhook-id"]);

    const email = smtp.messages.find((message) => message.subject?.includes(reference));
    if (!email) throw new Error("no email");
    expect(email.envelope.rcptTo).toEqual(["pm@example.com"]);
    const { method, event, parsed } = await inviteIn(email.raw);
    expect(method).toBe("REQUEST");
    expect(event.summary).toBe(validEstimateRequest.jobName);
    expect(event.location).toBe(validEstimateRequest.jobAddress);
    expect(event.uid).toContain(reference);
    // 14:30 on 14 May 2030 in New York (EDT, UTC-4) is 18:30 UTC.
    expect(event.startDate.toJSDate().toISOString()).toBe("2030-05-14T18:30:00.000Z");
    expect(event.startDate.isDate).toBe(false);
    expect(parsed.text).toContain(`Job Name: ${validEstimateRequest.jobName}`);
  });

  it("writes the same start whatever zone the server runs in", async () => {
    const starts: string[] = [];
    for (const zone of ["UTC", "Asia/Tokyo", "America/Los_Angeles"]) {
      process.env.TZ = zone;
      const context = contextFor();
      const reference = referenceOf(
        (await submit("estimate", { ...validEstimateRequest, appointment: "2030-12-02", jobName: zone }, context))
          .result,
      );
      await deliverUntil(context, () => smtp.messages.some((message) => message.subject?.includes(reference)));
      const email = smtp.messages.find((message) => message.subject?.includes(reference));
      starts.push((await inviteIn(email?.raw ?? "")).event.startDate.toJSDate().toISOString());
    }
    // 14:30 on 2 December in New York (EST, UTC-5).
    expect(starts).toEqual(Array(3).fill("2030-12-02T19:30:00.000Z"));
  });

  it("answers a blank required field, even of spaces, with the spec's message and stores nothing", async () => {
    const { status, result } = await submit("estimate", {
      ...validEstimateRequest,
      jobAddress: "   ",
      appointmentTime: "",
    });
    expect(status).toBe(400);
    expect(result).toMatchObject({ status: "invalid", message: "Please fill in all required fields." });
  });

  it("refuses an impossible date and a time that is not one, beside their fields, and takes a past date once its warning was seen", async () => {
    const { result } = await submit("estimate", {
      ...validEstimateRequest,
      appointment: "2030-02-30",
      appointmentTime: "25:00",
    });
    expect(result.status === "invalid" && result.problems).toEqual({
      appointment: "Appointment for estimate is not a real date",
      appointmentTime: "Appointment Time must be a time, like 2:30 PM",
    });
    const past = await submit("estimate", { ...validEstimateRequest, appointment: "2020-01-06" });
    expect(past.result.status === "invalid" && past.result.warnings).toEqual({ appointment: PAST_DATE_WARNING });
    const seen = await submit("estimate", {
      ...validEstimateRequest,
      appointment: "2020-01-06",
      [SOFT_CHECKS_SEEN_FIELD]: "appointment",
    });
    expect(seen.result.status).toBe("success");
  });
});

describe("the job request", () => {
  it("posts spec §3's ten strings with the amount as 12500.50, and an all-day invite for its date", async () => {
    process.env.TZ = "Pacific/Auckland";
    const context = contextFor();
    const reference = referenceOf((await submit("job", validJobRequest, context)).result);
    expect(reference).toMatch(/^JOB-[0-9A-Z]{6}$/);
    await deliverUntil(
      context,
      () =>
        hooks.requests.some((request) => request.headers["submission-reference"] === reference) &&
        smtp.messages.some((message) => message.subject?.includes(reference)),
    );
    const request = hooks.requests.find((candidate) => candidate.headers["submission-reference"] === reference);
    const body = JSON.parse(request?.body ?? "{}");
    expect(body).toEqual(storedJobRequest);
    expect(Object.keys(body)).toEqual(JOB_REQUEST_WEBHOOK_KEYS);
    const email = smtp.messages.find((message) => message.subject?.includes(reference));
    const { event } = await inviteIn(email?.raw ?? "");
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe("2030-06-02");
  });

  it("sends only job name and address as required, every other answer as an empty string", async () => {
    const context = contextFor();
    const reference = referenceOf(
      (await submit("job", { jobName: " Shed ", jobAddress: "1 Farm Ln" }, context)).result,
    );
    const stored = await storedByReference(database.db, reference);
    expect(stored.deliveries[0]?.body).toEqual({
      jobName: "Shed",
      jobAddress: "1 Farm Ln",
      estimateOpportunityNumber: "",
      jobSummary: "",
      appointmentForJob: "",
      projectTotalAmount: "",
      contactPerson: "",
      phone: "",
      email: "",
      notes: "",
    });
    // Without a date there is no invite, but the scheduler still hears of the job.
    expect(stored.deliveries.map((delivery) => delivery.target)).toEqual([
      "WEBHOOK_JOB_REQUEST_URL",
      "ESTIMATE_SCHEDULER_EMAIL",
    ]);
    expect(stored.deliveries[1]?.body).not.toHaveProperty("icalEvent");
  });

  it.each([
    ["$12,500", "12500.00"],
    ["12500.5", "12500.50"],
    [" 1,234,567.89 ", "1234567.89"],
    ["0", "0.00"],
  ])("reads the amount %j as %j", async (typed, stored) => {
    const reference = referenceOf((await submit("job", { ...validJobRequest, projectTotalAmount: typed })).result);
    expect((await storedByReference(database.db, reference)).submission.payload).toMatchObject({
      projectTotalAmount: stored,
    });
  });

  it.each(["twelve", "12.345", "1,00", "-5", "$"])("refuses %j as an amount, beside the field", async (typed) => {
    const { status, result } = await submit("job", { ...validJobRequest, projectTotalAmount: typed });
    expect(status).toBe(400);
    expect(result.status === "invalid" && result.problems.projectTotalAmount).toBe(
      "Project Total Amount must be an amount in dollars, like 12,500.00",
    );
  });
});

describe("both forms", () => {
  it("are listed in the inbox with their label and found by job name and address", async () => {
    const context = contextFor();
    const estimate = referenceOf(
      (await submit("estimate", { ...validEstimateRequest, jobName: "Quartz Hall rewiring" }, context)).result,
    );
    const job = referenceOf(
      (await submit("job", { ...validJobRequest, jobAddress: "77 Quartz Hall Way" }, context)).result,
    );
    const request = await staffRequest(context, staffId, "/admin/inbox?q=quartz%20hall");
    const inbox = await loadInbox(request, context);
    const rows = "rows" in inbox.data ? inbox.data.rows : [];
    expect(rows.map((row) => [row.reference, describeSubmissionType(row.type).label]).sort()).toEqual(
      [
        [estimate, "Internal estimate request"],
        [job, "Job request"],
      ].sort(),
    );
  });

  // The page shows the form's own failure message with the answers kept (form-route.ts; scheduling-requests.spec.ts).
  it("answer 503, not 500, while the database is down: the session cannot be checked, so nothing runs", async () => {
    const dead = connectDatabase("postgres://nobody:nothing@127.0.0.1:9/gone", pino({ level: "silent" }));
    try {
      const live = contextFor();
      for (const form of ["estimate", "job"] as const) {
        const { path } = FORMS[form];
        // Signed in while the database was up; it goes away before the form is sent.
        const signedIn = await staffRequest(live, staffId, path, {
          method: "POST",
          body: new URLSearchParams(form === "estimate" ? validEstimateRequest : validJobRequest),
        });
        const context = Object.assign(contextFor(), { db: dead.db });
        let ran = false;
        const answer = await asStaffRoute(signedIn, context, (request) => {
          ran = true;
          return callAction(form, request, context);
        }).then(
          () => undefined,
          (thrown: unknown) => thrown as { init?: ResponseInit; data?: unknown },
        );
        expect(ran).toBe(false);
        expect(answer?.init?.status).toBe(503);
        expect(answer?.data).toMatchObject({ status: "error", retry: true, sessionUnchecked: true });
      }
    } finally {
      await dead.close();
    }
  });

  it("never answer 5xx, whatever the fields hold", async () => {
    const names = [...Object.keys(validEstimateRequest), ...Object.keys(validJobRequest)];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<keyof typeof FORMS>("estimate", "job"),
        fc.dictionary(fc.constantFrom(...names), fc.string({ maxLength: 300 })),
        async (form, fields) => {
          const { status } = await submit(form, fields);
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});
