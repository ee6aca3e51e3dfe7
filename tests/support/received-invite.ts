import ICAL from "ical.js";
import { simpleParser } from "mailparser";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import type { AnyFormDefinition } from "../../app/forms/definition";
import { submitForm } from "../../app/forms/submit-form.server";
import { createEmailSender } from "../../app/outbox/email-sender.server";
import { createDeliveryWorker } from "../../app/outbox/worker.server";
import { startSession } from "../../app/services/auth/sessions.server";
import { loadContextFor } from "./load-context";
import { type ReceivedMessage, type SmtpReceiver, startSmtpReceiver } from "./smtp-receiver";
import { addStaffUser, cookieFrom } from "./staff";
import { asStaffRoute } from "./staff-request";
import { createTestDatabase, type TestDatabase } from "./test-database";

export const INVITE_MAIL_FROM = "Website <website@example.com>";
export const INVITE_OFFICE_EMAIL = "office@example.com";
export const INVITE_SCHEDULER_EMAIL = "pm@example.com";

/** A database, a real SMTP receiver and the app's settings for a staff form's scheduler email with its invite. */
export type InviteWorld = {
  database: TestDatabase;
  smtp: SmtpReceiver;
  context: AppLoadContext;
  cookie: string;
  close: () => Promise<void>;
};

export async function startInviteWorld(): Promise<InviteWorld> {
  const [database, smtp] = await Promise.all([createTestDatabase(), startSmtpReceiver()]);
  const context = loadContextFor(database.db, {
    SMTP_URL: smtp.smtpUrl,
    MAIL_FROM: INVITE_MAIL_FROM,
    STAFF_NOTIFY_EMAIL: INVITE_OFFICE_EMAIL,
    ESTIMATE_SCHEDULER_EMAIL: INVITE_SCHEDULER_EMAIL,
  });
  const staff = await addStaffUser(database.db);
  const cookie = cookieFrom(
    await startSession(database.db, context.config, { userId: staff.id, secondFactorPending: false }),
  );
  return { database, smtp, context, cookie, close: async () => Promise.all([smtp.close(), database.drop()]).then() };
}

/**
 * Posts the staff form as the browser does, runs the outbox worker as the app does (its mail sender on the
 * receiver), and returns the email the receiver got for the scheduler, with the submission's reference.
 */
export async function schedulerEmailFor(
  world: InviteWorld,
  definition: AnyFormDefinition,
  path: string,
  answers: Record<string, string>,
): Promise<{ reference: string; message: ReceivedMessage }> {
  const before = world.smtp.messages.length;
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { cookie: world.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(answers),
  });
  const response = await asStaffRoute(request, world.context, (signedIn, context) =>
    submitForm(signedIn, context, definition),
  );
  const result = (response as { data: { status: string; reference?: string } }).data;
  if (result.status !== "success" || !result.reference) throw new Error(`not stored: ${JSON.stringify(result)}`);
  const emailSender = createEmailSender(world.smtp.smtpUrl, INVITE_MAIL_FROM);
  const worker = createDeliveryWorker({
    db: world.database.db,
    config: world.context.config,
    logger: pino({ level: "silent" }),
    emailSender,
  });
  try {
    await worker.runOnce();
    const messages = await world.smtp.waitForMessages(before + 1);
    const message = messages
      .slice(before)
      .find((candidate) => candidate.envelope.rcptTo.includes(INVITE_SCHEDULER_EMAIL));
    if (!message) throw new Error("no email to the scheduler");
    return { reference: result.reference, message };
  } finally {
    emailSender.close();
  }
}

/**
 * The invite a received email carries, as a calendar reads it: the text/calendar part's text, parsed by ical.js,
 * and the email's Reply-To addresses.
 */
export async function inviteIn(message: ReceivedMessage) {
  const email = await simpleParser(message.raw);
  const part = email.attachments.find((attachment) => attachment.contentType === "text/calendar");
  if (!part) throw new Error("no text/calendar part");
  const ics = part.content.toString("utf8");
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevent = calendar.getFirstSubcomponent("vevent");
  if (!vevent) throw new Error("no VEVENT");
  return {
    ics,
    method: calendar.getFirstPropertyValue("method"),
    event: new ICAL.Event(vevent),
    replyTo: email.replyTo?.value.map((address) => address.address) ?? [],
  };
}
