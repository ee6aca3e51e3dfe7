import nodemailer from "nodemailer";
import type { SendOutcome } from "./webhook-sender.server";
import { DEFAULT_PER_TARGET_LIMITS } from "./worker-limits";

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
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
    close: () => transport.close(),
  };
}

/**
 * Timeouts well inside the delivery worker's lease, so a stalled mail server cannot outlive the claim, and a
 * pool of connections as wide as the worker's sends to one email target (DEFAULT_PER_TARGET_LIMITS): a new connection
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
    maxConnections: String(DEFAULT_PER_TARGET_LIMITS.email),
  };
  for (const [option, value] of Object.entries(defaults)) {
    if (!url.searchParams.has(option)) url.searchParams.set(option, value);
  }
  return url.toString();
}
