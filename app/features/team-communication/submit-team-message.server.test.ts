import { and, asc, eq, inArray } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { createEmailSender } from "~/outbox/email-sender.server";
import { createSmsSender } from "~/outbox/sms-sender.server";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { startSession } from "~/services/auth/sessions.server";
import { deliveries, deliveryAttempts, staffDirectory, submissions } from "~/services/db/schema.server";
import { teamMessageForm } from "./definition";
import { loadMessageHistory } from "./message-history.server";
import { NO_RECIPIENT_MESSAGE } from "./schema";
import { TOO_MANY_RECIPIENTS } from "./send-limits.server";
import { addDirectoryEntry, setDirectoryEntryActive } from "./staff-directory.server";
import { submitTeamMessage } from "./submit-team-message.server";

const TWILIO_SID = "AC0123456789abcdef0123456789abcdef";
const TWILIO_TOKEN = "twilio-auth-token-for-tests";
const TWILIO_FROM = "+18035550100";
const TWILIO_PATH = `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`;

let database: TestDatabase;
let smtp: SmtpReceiver;
let twilio: WebhookReceiver;
let automation: WebhookReceiver;
let cookie: string;
let people: { emailOnly: number; mobileOnly: number; both: number; unreadable: number; gone: number };

beforeAll(async () => {
  [database, smtp, twilio, automation] = await Promise.all([
    createTestDatabase(),
    startSmtpReceiver(),
    startWebhookReceiver(),
    startWebhookReceiver(),
  ]);
  const staff = await addStaffUser(database.db, "staff");
  cookie = cookieFrom(
    await startSession(database.db, contextFor().config, { userId: staff.id, secondFactorPending: false }),
  );
  const add = (name: string, email: string | null, mobile: string | null) =>
    addDirectoryEntry(database.db, { name, email, mobile }).then((entry) => entry.id);
  people = {
    emailOnly: await add("Emma Email", "emma@example.com", null),
    mobileOnly: await add("Mo Mobile", null, "(803) 555-0111"),
    both: await add("Bo Both", "bo@example.com", "803.555.0112"),
    unreadable: await add("Una Typo", "una@example.com", "555-CALL"),
    gone: await add("Gus Gone", "gus@example.com", "803-555-0113"),
  };
  await setDirectoryEntryActive(database.db, people.gone, false);
});
afterAll(async () => {
  await Promise.all([smtp.close(), twilio.close(), automation.close()]);
  await database.drop();
});

function contextFor(env: Record<string, string> = {}): AppLoadContext {
  return loadContextFor(database?.db, {
    SMTP_URL: smtp?.smtpUrl ?? "smtp://127.0.0.1:9",
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM,
    TWILIO_API_URL: twilio?.url ?? "http://127.0.0.1:9",
    WEBHOOK_TEAM_MESSAGE_URL: `${automation?.url ?? "http://127.0.0.1:9/"}team-message`,
    DELIVERY_RETRY_SCHEDULE: "0,50ms,50ms",
    ...env,
  });
}

function send(fields: Array<[string, string]>, as = { cookie, env: {} }) {
  const request = new Request("http://localhost/admin/quick-links/team-communication", {
    method: "POST",
    headers: { cookie: as.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  return asStaffRoute(request, contextFor(as.env), submitTeamMessage);
}

/** A staff user of their own, so that only their messages count against their limits. */
async function newSender(env: Record<string, string>) {
  const user = await addStaffUser(database.db);
  const session = await startSession(database.db, contextFor().config, { userId: user.id, secondFactorPending: false });
  return { cookie: cookieFrom(session), env, userId: user.id };
}

/** What a user's team messages stored: the messages, and the distinct texts among their deliveries. */
async function storedBy(userId: number) {
  const rows = await database.db
    .select({ submissionId: submissions.id, channel: deliveries.channel, webhookId: deliveries.webhookId })
    .from(submissions)
    .innerJoin(deliveries, eq(deliveries.submissionId, submissions.id))
    .where(and(eq(submissions.type, teamMessageForm.type), eq(submissions.submittedById, userId)));
  return {
    messages: new Set(rows.map((row) => row.submissionId)).size,
    texts: new Set(rows.filter((row) => row.channel === "sms").map((row) => row.webhookId)).size,
  };
}

const deliveryCount = async () => (await database.db.select().from(deliveries)).length;

/** The worker as the app runs it, with real SMTP and Twilio senders pointed at the loopback servers. */
function workerFor(context: AppLoadContext) {
  const logger = pino({ level: "silent" });
  const { config } = context;
  return createDeliveryWorker({
    db: database.db,
    config,
    logger,
    emailSender: createEmailSender(config.SMTP_URL ?? "", "Office <office@example.com>"),
    smsSender: createSmsSender(
      { accountSid: TWILIO_SID, authToken: TWILIO_TOKEN, from: TWILIO_FROM, apiUrl: twilio.url },
      logger,
    ),
  });
}

/** Runs the worker until every delivery of the submission has ended (delivered or failed). */
async function deliverAll(submissionId: number) {
  const worker = workerFor(contextFor());
  for (let round = 0; round < 200; round++) {
    await worker.runOnce();
    const rows = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, submissionId));
    if (rows.every((row) => row.status === "delivered" || row.status === "failed")) return rows;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the deliveries did not end");
}

const twilioCreated = (sid: string) => ({
  status: 201,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ sid, status: "queued" }),
});

describe("sending a team message", () => {
  it("sends one email or text per channel per recipient, with the message, and the spec §7 webhook", async () => {
    twilio.requests.length = 0;
    twilio.respondWith(twilioCreated("SM1"), twilioCreated("SM2"));
    const response = await send([
      ["recipients", String(people.emailOnly)],
      ["recipients", String(people.mobileOnly)],
      ["recipients", String(people.both)],
      ["subject", "Storm crew tonight"],
      ["body", "Meet at the yard at 6 pm.\nBring the generator."],
    ]);
    expect(response.init?.status ?? 200).toBe(200);
    expect(response.data).toMatchObject({
      status: "success",
      reference: expect.stringMatching(/^MSG-/),
      message: "Message sent successfully!",
      sent: true,
    });
    const { submission, deliveries: stored } = await storedByReference(
      database.db,
      (response.data as { reference: string }).reference,
    );
    expect(stored.map((delivery) => [delivery.channel, delivery.target, delivery.destination])).toEqual([
      ["email", "Emma Email", "emma@example.com"],
      ["sms", "Mo Mobile", "+18035550111"],
      ["email", "Bo Both", "bo@example.com"],
      ["sms", "Bo Both", "+18035550112"],
      ["webhook", "WEBHOOK_TEAM_MESSAGE_URL", `${automation.url}team-message`],
    ]);

    const ended = await deliverAll(submission.id);
    expect(ended.map((delivery) => delivery.status)).toEqual(Array(5).fill("delivered"));

    const emails = await smtp.waitForMessages(2);
    expect(emails.map((email) => email.envelope.rcptTo).sort()).toEqual([["bo@example.com"], ["emma@example.com"]]);
    expect(emails.every((email) => email.subject === "Storm crew tonight")).toBe(true);
    expect(emails.every((email) => email.raw.includes("Meet at the yard at 6 pm."))).toBe(true);

    const texts = twilio.requests.filter((request) => request.path === TWILIO_PATH);
    expect(texts).toHaveLength(2);
    const basic = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString("base64")}`;
    expect(texts.every((request) => request.headers.authorization === basic)).toBe(true);
    expect(
      texts
        .map((request) => Object.fromEntries(new URLSearchParams(request.body)))
        .sort((a, b) => (a.To ?? "").localeCompare(b.To ?? "")),
    ).toEqual([
      {
        To: "+18035550111",
        From: TWILIO_FROM,
        Body: "Storm crew tonight\n\nMeet at the yard at 6 pm.\nBring the generator.",
      },
      {
        To: "+18035550112",
        From: TWILIO_FROM,
        Body: "Storm crew tonight\n\nMeet at the yard at 6 pm.\nBring the generator.",
      },
    ]);

    const [hook] = await automation.waitForRequests(1);
    const payload = submission.payload as { sentAt: string };
    expect(JSON.parse(hook?.body ?? "")).toEqual({
      subject: "Storm crew tonight",
      message: "Meet at the yard at 6 pm.\nBring the generator.",
      recipients: [
        { id: people.emailOnly, name: "Emma Email", email: "emma@example.com", phoneNumber: null },
        { id: people.mobileOnly, name: "Mo Mobile", email: null, phoneNumber: "+18035550111" },
        { id: people.both, name: "Bo Both", email: "bo@example.com", phoneNumber: "+18035550112" },
      ],
      timestamp: payload.sentAt,
      sender: "Team Communication System",
    });
    expect(new Date(payload.sentAt).toISOString()).toBe(payload.sentAt);
    expect(Object.keys(JSON.parse(hook?.body ?? ""))).toEqual([
      "subject",
      "message",
      "recipients",
      "timestamp",
      "sender",
    ]);
  });

  it("sends one email and one text to an address two chosen people share, and lists both people", async () => {
    // Entries older than the directory's unique indexes (their compared columns empty), as ServiceTitan may list.
    const [ann, ben] = await database.db
      .insert(staffDirectory)
      .values([
        { name: "Ann Shared", email: "Crew@Example.com", mobile: "(803) 555-0150" },
        { name: "Ben Shared", email: "crew@example.com", mobile: "+1 803 555 0150" },
      ])
      .returning({ id: staffDirectory.id });
    smtp.messages.length = 0;
    twilio.requests.length = 0;
    twilio.respondWith(twilioCreated("SM9"));
    const response = await send([
      ["recipients", String(ann?.id)],
      ["recipients", String(ben?.id)],
      ["subject", "Yard closed"],
      ["body", "Go straight to the site."],
    ]);
    const { submission, deliveries: stored } = await storedByReference(
      database.db,
      (response.data as { reference: string }).reference,
    );
    expect(stored.map((delivery) => [delivery.channel, delivery.target, delivery.destination])).toEqual([
      ["email", "Ann Shared, Ben Shared", "Crew@Example.com"],
      ["sms", "Ann Shared, Ben Shared", "+18035550150"],
      ["webhook", "WEBHOOK_TEAM_MESSAGE_URL", `${automation.url}team-message`],
    ]);
    await deliverAll(submission.id);
    const emails = await smtp.waitForMessages(1);
    expect(emails.map((email) => email.envelope.rcptTo.map((to) => to.toLowerCase()))).toEqual([["crew@example.com"]]);
    expect(twilio.requests.filter((request) => request.path === TWILIO_PATH)).toHaveLength(1);

    const [entry] = (await loadMessageHistory(database.db, "admin")).filter(
      (row) => row.submissionId === submission.id,
    );
    expect(entry?.recipients.map(({ name, email, text }) => [name, email, text])).toEqual([
      [
        "Ann Shared",
        expect.objectContaining({ status: "delivered" }),
        expect.objectContaining({ status: "delivered" }),
      ],
      [
        "Ben Shared",
        expect.objectContaining({ status: "delivered" }),
        expect.objectContaining({ status: "delivered" }),
      ],
    ]);
    await database.db.delete(staffDirectory).where(inArray(staffDirectory.id, [ann?.id ?? 0, ben?.id ?? 0]));
  });

  it("does not text a number it cannot read, and still emails that person", async () => {
    const response = await send([
      ["recipients", String(people.unreadable)],
      ["subject", "Hello"],
      ["body", "Testing"],
    ]);
    const { deliveries: stored } = await storedByReference(
      database.db,
      (response.data as { reference: string }).reference,
    );
    expect(stored.map((delivery) => delivery.channel)).toEqual(["email", "webhook"]);
  });

  it("says what went and what did not, and blames no record for a service the server has not set up", async () => {
    const chosen: Array<[string, string]> = [
      ["recipients", String(people.emailOnly)],
      ["recipients", String(people.mobileOnly)],
      ["recipients", String(people.both)],
      ["subject", "Yard closed"],
      ["body", "The yard is closed on Friday."],
    ];
    const noTexts = await send(chosen, {
      cookie,
      env: { TWILIO_ACCOUNT_SID: "", TWILIO_AUTH_TOKEN: "", TWILIO_FROM: "" },
    });
    expect(noTexts.data).toMatchObject({
      status: "success",
      sent: false,
      message:
        "Sent to 2 people by email. Passed to the message automation too. Not sent by text: texts are not set up on this server. An admin can set them up. Mo Mobile has no email address.",
    });
    const nothing = await send(chosen, {
      cookie,
      env: {
        SMTP_URL: "",
        TWILIO_ACCOUNT_SID: "",
        TWILIO_AUTH_TOKEN: "",
        TWILIO_FROM: "",
        WEBHOOK_TEAM_MESSAGE_URL: "",
      },
    });
    expect(nothing.init?.status ?? 200).toBe(200);
    expect(nothing.data).toMatchObject({
      status: "success",
      sent: false,
      message: "Saved, but not sent: email and texts are not set up on this server. An admin can set them up.",
      reference: expect.stringMatching(/^MSG-/),
    });

    const history = await loadMessageHistory(database.db, "admin");
    const row = history.find((entry) => entry.reference === (nothing.data as { reference: string }).reference);
    // Bo Both has an address and a mobile: the server's set-up, not his record, is why nothing went.
    expect(row?.recipients.map(({ name, email, text }) => [name, email, text])).toEqual([
      ["Emma Email", "not-set-up", "no-address"],
      ["Mo Mobile", "no-address", "not-set-up"],
      ["Bo Both", "not-set-up", "not-set-up"],
    ]);
    expect(row?.webhook).toBe("none");
  });

  it("shows an invalid number as failed in words and does not retry it; a 503 is retried and then delivered", async () => {
    twilio.requests.length = 0;
    twilio.respondWith(
      {
        status: 400,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          code: 21211,
          message: "The 'To' number +18035550111 is not a valid phone number.",
          more_info: "https://www.twilio.com/docs/errors/21211",
          status: 400,
        }),
      },
      { status: 503, body: "" },
      twilioCreated("SM3"),
    );
    const response = await send([
      ["recipients", String(people.mobileOnly)],
      ["subject", "First"],
      ["body", "One"],
    ]);
    const first = await storedByReference(database.db, (response.data as { reference: string }).reference);
    const invalid = (await deliverAll(first.submission.id)).find((delivery) => delivery.channel === "sms");
    expect(invalid).toMatchObject({
      status: "failed",
      attemptCount: 1,
      lastError: "Not a valid phone number (Twilio 21211)",
    });

    const retried = await send([
      ["recipients", String(people.mobileOnly)],
      ["subject", "Second"],
      ["body", "Two"],
    ]);
    const second = await storedByReference(database.db, (retried.data as { reference: string }).reference);
    const text = (await deliverAll(second.submission.id)).find((delivery) => delivery.channel === "sms");
    expect(text).toMatchObject({ status: "delivered", attemptCount: 2 });
    const attempts = await database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, text?.id ?? 0))
      .orderBy(asc(deliveryAttempts.id));
    expect(attempts.map((attempt) => [attempt.httpStatus, attempt.succeeded])).toEqual([
      [503, false],
      [201, true],
    ]);
  });

  it("texts the body alone when the subject above it would pass 1,600 characters, as one message", async () => {
    const body = "b".repeat(1600);
    const response = await send([
      ["recipients", String(people.mobileOnly)],
      ["subject", "Long one"],
      ["body", body],
    ]);
    const { deliveries: stored } = await storedByReference(
      database.db,
      (response.data as { reference: string }).reference,
    );
    expect(stored.find((delivery) => delivery.channel === "sms")?.body).toEqual({ text: body });
  });

  it("refuses a message with no technician, in the spec's words, and stores nothing", async () => {
    const response = await send([
      ["subject", "Nobody"],
      ["body", "Hello?"],
    ]);
    expect(response.init?.status).toBe(400);
    expect(response.data).toMatchObject({ status: "invalid", message: NO_RECIPIENT_MESSAGE });
  });

  it("refuses a technician who is not on the list (deactivated) and a body over 1,600 characters", async () => {
    const gone = await send([
      ["recipients", String(people.gone)],
      ["subject", "Hi"],
      ["body", "Hi"],
    ]);
    expect(gone.init?.status).toBe(400);
    expect(gone.data).toMatchObject({
      status: "invalid",
      problems: { recipients: expect.stringContaining("no longer on the list") },
    });

    const long = await send([
      ["recipients", String(people.both)],
      ["subject", "Long"],
      ["body", "x".repeat(1601)],
    ]);
    expect(long.init?.status).toBe(400);
    expect(long.data).toMatchObject({ problems: { body: "Body is too long (at most 1600 characters)" } });
  });

  it("sends signed-out visitors to sign in and stores nothing", async () => {
    const request = new Request("http://localhost/admin/quick-links/team-communication", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ recipients: String(people.both), subject: "x", body: "y" }),
    });
    const before = (await database.db.select().from(deliveries)).length;
    await expect(asStaffRoute(request, contextFor(), submitTeamMessage)).rejects.toMatchObject({ status: 302 });
    expect((await database.db.select().from(deliveries)).length).toBe(before);
  });
});

describe("limits on what costs money", () => {
  const message = (recipients: number[], body = "Counting."): Array<[string, string]> => [
    ...recipients.map((id): [string, string] => ["recipients", String(id)]),
    ["subject", "Limits"],
    ["body", body],
  ];

  /**
   * Sends `count` messages (each its own: a different body) from the sender at once, and answers their statuses.
   * They are lined up first: a connection of the test's locks the submissions table until every post waits for a
   * lock (the table, where a post reads what its sender stored, or one that the posts take), then lets them all go
   * at the same instant. Without that, each post's own work before its check (the session, the body, the
   * technicians) spreads them out on a busy machine, and the first was often stored before the others counted.
   */
  async function sendAtOnce(count: number, recipients: number[], sender: Awaited<ReturnType<typeof newSender>>) {
    const gate = new pg.Client({ connectionString: database.url });
    await gate.connect();
    let posts: ReturnType<typeof send>[] = [];
    try {
      await gate.query("BEGIN");
      await gate.query("LOCK TABLE submissions IN ACCESS EXCLUSIVE MODE");
      posts = Array.from({ length: count }, (_, index) => send(message(recipients, `At once ${index + 1}.`), sender));
      await waitFor(`all ${count} posts to wait for a lock`, async () => {
        // Within a transaction pg_stat_activity is read once and kept: a fresh look each time.
        await gate.query("SELECT pg_stat_clear_snapshot()");
        const { rows } = await gate.query<{ waiting: number }>(
          "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return (rows[0]?.waiting ?? 0) >= count;
      });
      await gate.query("COMMIT");
    } finally {
      await gate.end();
    }
    const responses = await Promise.all(posts);
    return responses.map((response) => ({ status: response.init?.status ?? 200, data: response.data }));
  }

  /** Exactly one of the answers is a sent message; each other is a refusal beside Send that says `refusal`. */
  function expectOneSent(answers: Awaited<ReturnType<typeof sendAtOnce>>, refusal: string) {
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused).toMatchObject({
        status: 429,
        data: { status: "invalid", problems: { send: expect.stringContaining(refusal) } },
      });
    }
  }

  it("refuses a message to more than 100 technicians, beside Send, and sends nothing", async () => {
    const sender = await newSender({});
    const before = await deliveryCount();
    const ids = Array.from({ length: 101 }, (_, index) => 1_000_000 + index);
    const response = await send(message(ids), sender);
    expect(response.init?.status).toBe(400);
    expect(response.data).toMatchObject({
      status: "invalid",
      message: TOO_MANY_RECIPIENTS,
      problems: { send: TOO_MANY_RECIPIENTS },
    });
    expect(await deliveryCount()).toBe(before);
  });

  it("refuses a user's messages past TEAM_MESSAGES_PER_MINUTE, counted from the database, and sends nothing", async () => {
    const sender = await newSender({ TEAM_MESSAGES_PER_MINUTE: "2" });
    for (const _ of [1, 2])
      expect((await send(message([people.emailOnly]), sender)).data).toMatchObject({ status: "success" });
    const before = await deliveryCount();
    const refused = await send(message([people.emailOnly]), sender);
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toMatchObject({
      status: "invalid",
      problems: { send: expect.stringContaining("You have sent 2 messages in the last minute") },
    });
    expect(await deliveryCount()).toBe(before);
    // Another user's count is their own.
    const other = await newSender({ TEAM_MESSAGES_PER_MINUTE: "2" });
    expect((await send(message([people.emailOnly]), other)).data).toMatchObject({ status: "success" });
  });

  it("refuses a message whose texts would pass TEAM_TEXTS_PER_HOUR, and still sends one without texts", async () => {
    const sender = await newSender({ TEAM_TEXTS_PER_HOUR: "3" });
    // Two texts: Mo's mobile and Bo's.
    expect((await send(message([people.mobileOnly, people.both]), sender)).data).toMatchObject({ status: "success" });
    const before = await deliveryCount();
    const refused = await send(message([people.mobileOnly, people.both]), sender);
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toMatchObject({
      problems: {
        send: expect.stringContaining("would send 2 texts, and you have sent 2 of the 3 allowed in an hour"),
      },
    });
    expect(await deliveryCount()).toBe(before);
    expect((await send(message([people.emailOnly]), sender)).data).toMatchObject({ status: "success" });
    expect((await send(message([people.mobileOnly]), sender)).data).toMatchObject({ status: "success" });
  });

  it("holds TEAM_MESSAGES_PER_MINUTE when a user one below it sends eight messages at once: one goes", async () => {
    const sender = await newSender({ TEAM_MESSAGES_PER_MINUTE: "3" });
    for (const count of [1, 2]) {
      const response = await send(message([people.emailOnly], `Before ${count}.`), sender);
      expect(response.data).toMatchObject({ status: "success" });
    }
    const answers = await sendAtOnce(8, [people.emailOnly], sender);
    expectOneSent(answers, "You have sent 3 messages in the last minute");
    expect(await storedBy(sender.userId)).toEqual({ messages: 3, texts: 0 });
  });

  it("holds TEAM_TEXTS_PER_HOUR when a user one text below it sends six texts at once: one goes", async () => {
    const sender = await newSender({ TEAM_TEXTS_PER_HOUR: "3" });
    expect((await send(message([people.mobileOnly, people.both]), sender)).data).toMatchObject({ status: "success" });
    const answers = await sendAtOnce(6, [people.mobileOnly], sender);
    expectOneSent(answers, "would send 1 text, and you have sent 3 of the 3 allowed");
    expect(await storedBy(sender.userId)).toEqual({ messages: 2, texts: 3 });
  });
});
