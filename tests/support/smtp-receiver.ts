import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerEnvelope } from "smtp-server";
import { createArrivals } from "./arrivals";

export type ReceivedMessage = {
  envelope: { mailFrom: string | undefined; rcptTo: string[] };
  /** The message as sent after DATA: headers and MIME body, CRLF line ends. */
  raw: string;
  /** The Subject header, unfolded (RFC 2047 encoded words are left as they are). */
  subject: string | undefined;
  /** The Content-Type of every MIME part, lower case, e.g. ["multipart/alternative", "text/plain", "text/html"]. */
  contentTypes: string[];
  receivedAt: number;
};

export type SmtpReceiver = {
  /** smtp://127.0.0.1:PORT — stays the same across stop() and start(). */
  readonly smtpUrl: string;
  readonly port: number;
  readonly messages: ReceivedMessage[];
  /**
   * Answers RCPT TO for `address` with `reply` from now on, as a mail server refusing a recipient does:
   * "550 5.1.1 no such user" for good, "450 4.2.1 mailbox busy" for now.
   */
  refuseRecipient: (address: string, reply: string) => void;
  /** Resolves once at least `count` messages came in; rejects after `timeoutMs`. */
  waitForMessages: (count: number, timeoutMs?: number) => Promise<ReceivedMessage[]>;
  /** Stops listening and cuts open sessions: clients now get ECONNREFUSED. */
  stop: () => Promise<void>;
  /** Listens again on the same port. */
  start: () => Promise<void>;
  close: () => Promise<void>;
};

/** The value of a header in a raw message, folded lines joined, or undefined. */
export function headerValue(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const pattern = new RegExp(`^${name}:[ \\t]*(.*)$`, "im");
  return pattern.exec(unfolded)?.[1]?.trim();
}

function contentTypesOf(raw: string): string[] {
  const unfolded = raw.replace(/\r?\n[ \t]+/g, " ");
  return [...unfolded.matchAll(/^content-type:[ \t]*([^;\s]+)/gim)].map((match) => (match[1] ?? "").toLowerCase());
}

function addressOf(address: SMTPServerEnvelope["mailFrom"]): string | undefined {
  return address === false ? undefined : address.address;
}

/** A real SMTP server (smtp-server) on 127.0.0.1, no TLS, no authentication, that keeps what it is sent. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const arrivals = createArrivals<ReceivedMessage>("messages");
  const messages = arrivals.items;
  let server: SMTPServer | undefined;
  let port = 0;
  const refusals = new Map<string, { responseCode: number; text: string }>();

  function listen(onPort: number): Promise<void> {
    const created = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 100,
      // No DNS on a test machine to wait for: the client is 127.0.0.1.
      disableReverseLookup: true,
      onRcptTo(address, _session, callback) {
        const refusal = refusals.get(address.address.toLowerCase());
        if (!refusal) return callback();
        // smtp-server answers an error with its responseCode and its message as the reply text.
        callback(Object.assign(new Error(refusal.text), { responseCode: refusal.responseCode }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", callback);
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          arrivals.add({
            envelope: {
              mailFrom: addressOf(session.envelope.mailFrom),
              rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            raw,
            subject: headerValue(raw, "subject"),
            contentTypes: contentTypesOf(raw),
            receivedAt: Date.now(),
          });
          callback();
        });
      },
    });
    created.on("error", () => {
      // A client that drops the connection is not the test's concern.
    });
    return new Promise((resolve, reject) => {
      created.server.once("error", reject);
      created.listen(onPort, "127.0.0.1", () => {
        created.server.off("error", reject);
        server = created;
        port = (created.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async function stop() {
    const current = server;
    if (!current) return;
    server = undefined;
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen(0);

  return {
    get smtpUrl() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    refuseRecipient: (address, reply) => {
      const [, code, text] = /^(\d{3}) (.*)$/.exec(reply) ?? [];
      if (!code || text === undefined) throw new Error(`not an SMTP reply: ${reply}`);
      refusals.set(address.toLowerCase(), { responseCode: Number(code), text });
    },
    waitForMessages: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    stop,
    start: async () => {
      if (server) return;
      await listen(port);
    },
    close: stop,
  };
}
