import nodemailer from "nodemailer";
import type { NodemailerError } from "nodemailer/lib/errors";
import type { DeliveryChannelSender } from "./channels.server";
import { readSubmissionFiles } from "./submission-files.server";
import type { SendOutcome } from "./webhook-sender.server";

/**
 * The SMTP connection pool's width, and the most email sends the worker has in flight to one target. At 10, an
 * office email sent beside 200 others waited 1.1 s at p99 on a 2-core machine; at 20, 0.55 s (the fault suite's
 * "slow target beside a fast one"). Mail servers take that many connections from one client (Postfix allows 50).
 */
export const EMAIL_CONNECTIONS = 20;

export type EmailBody = {
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** The submission's stored files attached, by field name: read when the email is sent, never copied here. */
  attachStoredFiles?: string[];
  /** A calendar invite (iCalendar text), sent as nodemailer's text/calendar alternative. */
  icalEvent?: { method: string; filename: string; content: string };
};

export type EmailAttachment = { filename: string; content: Uint8Array; contentType: string };

export type EmailSender = {
  send: (to: string, body: EmailBody, attachments?: readonly EmailAttachment[]) => Promise<SendOutcome>;
  close: () => void;
};

export const emailChannel: DeliveryChannelSender = {
  perTargetLimit: EMAIL_CONNECTIONS,
  async send(delivery, { db, emailSender }) {
    if (!emailSender) return { ok: false, error: "SMTP_URL is not set" };
    const email = delivery.body as EmailBody;
    const attached = email.attachStoredFiles?.length
      ? await readSubmissionFiles(db, delivery.submissionId, email.attachStoredFiles)
      : [];
    return emailSender.send(
      delivery.destination,
      email,
      attached.map((file) => ({ filename: file.fileName, content: file.content, contentType: file.contentType })),
    );
  },
};

export function createEmailSender(smtpUrl: string, from: string): EmailSender {
  const transport = nodemailer.createTransport(withDefaults(smtpUrl));
  return {
    send: async (to, { attachStoredFiles: _named, ...body }, attachments = []) => {
      try {
        await transport.sendMail({
          from,
          to,
          ...body,
          attachments: attachments.map((file) => ({ ...file, content: Buffer.from(file.content) })),
        });
        return { ok: true };
      } catch (error) {
        return refusalOutcome(error as NodemailerError);
      }
    },
    close: () => transport.close(),
  };
}

/** What the mail server refused, by the SMTP command it answered, in the words staff read. */
const REFUSED_BY_COMMAND: Record<string, string> = {
  "MAIL FROM": "the sender address",
  "RCPT TO": "the address",
  DATA: "the message",
};

/**
 * A failed send in words. A 5xx answer to the envelope or the message (nodemailer's `permanent`: "550 5.1.1 no
 * such user") is refused for good and not tried again, as Twilio's 21211 is; a 4xx is a refusal for now, and a
 * connection that failed or a refused login are retried like any other error, so a fixed SMTP_URL sends them.
 */
function refusalOutcome(error: NodemailerError): SendOutcome {
  const refused = error.command === undefined ? undefined : REFUSED_BY_COMMAND[error.command];
  if (refused === undefined || error.responseCode === undefined || error.response === undefined) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (error.permanent) {
    return {
      ok: false,
      permanent: true,
      error: `The receiving mail server refused ${refused} (SMTP ${error.response})`,
    };
  }
  return { ok: false, error: `The receiving mail server turned ${refused} away for now (SMTP ${error.response})` };
}

/**
 * Timeouts well inside the delivery worker's lease, so a stalled mail server cannot outlive the claim, and a
 * pool of connections as wide as the worker's sends to one email target (EMAIL_CONNECTIONS): a new connection
 * per email (connect, greeting, EHLO, and TLS on a real server) made a burst of 200 office emails wait seconds.
 * nodemailer reads its options from the URL's query; the operator's own values win.
 */
function withDefaults(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const defaults = {
    connectionTimeout: "10000",
    greetingTimeout: "10000",
    socketTimeout: "15000",
    pool: "true",
    maxConnections: String(EMAIL_CONNECTIONS),
  };
  for (const [option, value] of Object.entries(defaults)) {
    if (!url.searchParams.has(option)) url.searchParams.set(option, value);
  }
  return url.toString();
}
