import { createHash, createHmac, randomBytes } from "node:crypto";
import { type ClientRequest, request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { APPLICATION_PARTS, PNG_BYTES, smallPdf, validApplication } from "#tests/application-fixture";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { applicationForm } from "~/features/careers/definition";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The form the receiver got, parsed by the platform's own multipart parser. */
function parsedForm(received: ReceivedRequest): Promise<FormData> {
  return new Request("http://receiver.test/", {
    method: "POST",
    headers: { "content-type": String(received.headers["content-type"]) },
    body: new Uint8Array(received.rawBody),
  }).formData();
}

/** Standard Webhooks v1, computed here from the raw bytes, independently of the app's signer. */
function expectedSignature(received: ReceivedRequest): string {
  const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
  const signed = Buffer.concat([
    Buffer.from(`${received.headers["webhook-id"]}.${received.headers["webhook-timestamp"]}.`),
    received.rawBody,
  ]);
  return `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
}

function applicationPost(fields: Record<string, string>, resume?: { bytes: Buffer; name: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (resume) form.append("resume", new Blob([new Uint8Array(resume.bytes)], { type: "application/pdf" }), resume.name);
  return form;
}

/** A POST to /apply over a raw connection, so the test decides how much of the body is ever sent. */
function openRawPost(appUrl: string, headers: Record<string, string>) {
  const url = new URL(`${appUrl}/apply`);
  let request: ClientRequest | undefined;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { ...headers, origin: appUrl },
      },
      resolve,
    );
    request.on("error", reject);
  });
  if (!request) throw new Error("no request");
  return { request, response };
}

async function textOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** The resume's control as the page renders it: marked invalid or not, and the texts that describe it. */
function resumeControl(page: string) {
  const input = /<input[^>]*\sname="resume"[^>]*>/.exec(page)?.[0] ?? "";
  const described = (/aria-describedby="([^"]*)"/.exec(input)?.[1] ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(page)?.[2] ?? "");
  return { invalid: input.includes('aria-invalid="true"'), described };
}

describe("a job application through the running app", () => {
  let primary: WebhookReceiver;
  let secondary: WebhookReceiver;
  let smtp: SmtpReceiver;
  let app: AppServer;
  beforeAll(async () => {
    primary = await startWebhookReceiver();
    secondary = await startWebhookReceiver();
    smtp = await startSmtpReceiver();
    app = await startAppServer({
      env: {
        WEBHOOK_APPLICATION_URL: `${primary.url}hooks/application`,
        WEBHOOK_APPLICATION_SECONDARY_URL: `${secondary.url}hooks/application-2`,
        WEBHOOK_SECRET: SECRET,
        DELIVERY_RETRY_SCHEDULE: "0,200ms,200ms,200ms,200ms",
        SMTP_URL: smtp.smtpUrl,
        MAIL_FROM: "Website <website@example.com>",
        STAFF_NOTIFY_EMAIL: "office@example.com",
      },
    });
  });
  afterAll(async () => {
    await app.stop();
    await primary.close();
    await secondary.close();
    await smtp.close();
  });

  it("posts the fields and the resume byte for byte to both webhooks, each on its own, and emails applicant and office", async () => {
    // The primary fails once: the secondary is not held up by it, and the primary gets the same bytes again.
    primary.respondWith({ status: 500 });
    const pdf = smallPdf();
    const response = await fetch(`${app.url}/apply`, {
      method: "POST",
      headers: { origin: app.url },
      body: applicationPost(
        { ...validApplication, hasDriversLicense: "yes", licenseNumber: "SC-7654321" },
        { bytes: pdf, name: "jordan resume.pdf" },
      ),
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Application submitted successfully!");
    const reference = /(APP-[0-9A-Z]{6})/.exec(html)?.[1];
    expect(reference).toBeDefined();

    const [toSecondary] = await secondary.waitForRequests(1);
    const [failed, toPrimary] = await primary.waitForRequests(2);
    expect(toSecondary?.path).toBe("/hooks/application-2");
    expect(toPrimary?.path).toBe("/hooks/application");
    for (const received of [toSecondary, toPrimary]) {
      if (!received) throw new Error("missing request");
      expect(received.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(received.headers["webhook-signature"]).toBe(expectedSignature(received));
      const form = await parsedForm(received);
      expect([...new Set(form.keys())]).toEqual(APPLICATION_PARTS);
      expect(form.get("licenseNumber")).toBe("SC-7654321");
      expect(form.get("experienceLevel")).toBe("0");
      expect(form.get("criminalBackgroundExplanation")).toBe("");
      const resume = form.get("resume");
      if (!(resume instanceof File)) throw new Error("the resume part is not a file");
      // Forwarded under a name made from the reference, never the sender's.
      expect(resume.name).toBe(`${reference}-resume.pdf`);
      expect(resume.type).toBe("application/pdf");
      expect(sha256(new Uint8Array(await resume.arrayBuffer()))).toBe(sha256(pdf));
    }
    expect(failed?.headers["webhook-id"]).toBe(toPrimary?.headers["webhook-id"]);
    // A retry encodes the same parts again (with a boundary of its own).
    if (!failed || !toPrimary) throw new Error("missing request");
    const textParts = async (received: ReceivedRequest) =>
      [...(await parsedForm(received)).entries()].filter(([, value]) => typeof value === "string");
    expect(await textParts(failed)).toEqual(await textParts(toPrimary));
    expect(toPrimary?.headers["webhook-id"]).not.toBe(toSecondary?.headers["webhook-id"]);

    const emails = await smtp.waitForMessages(2);
    const receipt = emails.find((email) => email.envelope.rcptTo.includes("jordan@example.com"));
    const office = emails.find((email) => email.envelope.rcptTo.includes("office@example.com"));
    expect(receipt?.subject).toBe(`We received your application (${reference})`);
    expect(receipt?.raw).not.toContain("Helper");
    expect(receipt?.raw).not.toContain("Jordan");
    expect(office?.raw).toContain("Desired role: Helper");
    expect(office?.subject).toBe(`New job application ${reference} from Jordan Placeholder`);
  });

  it("refuses a PNG renamed .pdf with a clear message", async () => {
    const response = await fetch(`${app.url}/apply`, {
      method: "POST",
      headers: { origin: app.url },
      body: applicationPost(validApplication, { bytes: PNG_BYTES, name: "selfie.pdf" }),
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Your resume must be a PDF file.");
    expect(resumeControl(page)).toEqual({
      invalid: true,
      described: expect.arrayContaining([expect.stringContaining("Your resume must be a PDF file.")]),
    });
    expect(page).toContain(`value="${validApplication.firstName}"`);
  });

  it("refuses a 6 MB resume with its message, and gives every other answer back to the page", async () => {
    const response = await fetch(`${app.url}/apply`, {
      method: "POST",
      headers: { origin: app.url },
      body: applicationPost(validApplication, {
        bytes: Buffer.concat([smallPdf(), Buffer.alloc(6 * 1024 * 1024)]),
        name: "big.pdf",
      }),
    });
    expect(response.status).toBe(413);
    const page = await response.text();
    expect(page).toContain("File size should be less than 5MB");
    expect(resumeControl(page)).toMatchObject({
      invalid: true,
      described: expect.arrayContaining([expect.stringContaining("File size should be less than 5MB")]),
    });
    expect(page).toContain(`value="${validApplication.firstName}"`);
    expect(page).toContain(`>${validApplication.certifications}</textarea>`);
  });

  it("refuses an endless resume once the body's cap has streamed in, without waiting for the rest", async () => {
    // The client sends the headers and a little more of the file than the application's body may hold, then
    // stops and waits. A server that read the whole body before answering would never answer; one that caps
    // while streaming answers now. (A resume over 5 MB but within the cap is read, so that the other answers
    // can be given back with its message: the test above.)
    const boundary = "----apply-test-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nJordan\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="huge.pdf"\r\n` +
        "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const sentBeforeStopping = applicationForm.maxBodyBytes + 4 * chunk.length;
    const { request, response } = openRawPost(app.url, {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "transfer-encoding": "chunked",
    });
    let bytesSent = 0;
    request.write(head);
    const writeMore = () => {
      while (bytesSent < sentBeforeStopping) {
        bytesSent += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", writeMore);
          return;
        }
      }
    };
    writeMore();
    const answer = await response;
    const body = await textOf(answer);
    request.destroy();
    const status = answer.statusCode;
    expect(status).toBe(413);
    expect(body).toContain("The application is too large to send.");
    expect(bytesSent).toBeLessThan(applicationForm.maxBodyBytes + 1024 * 1024);
  });

  it("refuses a body declared over the cap before reading any of it", async () => {
    const { request, response } = openRawPost(app.url, {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(applicationForm.maxBodyBytes + 1),
    });
    // Not one byte of the declared body is sent.
    request.flushHeaders();
    const answer = await response;
    const page = await textOf(answer);
    request.destroy();
    expect(answer.statusCode).toBe(413);
    // The site's own page, with its header, the form to send again and the message.
    expect(page).toMatch(
      /role="alert"[^>]*>The application is too large to send\. Please shorten your answers or choose a smaller resume\.</,
    );
    expect(page).toMatch(/<header[\s>]/);
    expect(page).toMatch(/<button[^>]*type="submit"[^>]*>Submit Application<\/button>/);
  });
});
