import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { validEstimate } from "#tests/estimate-fixture";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";

const ESTIMATE = { ...validEstimate, comments: "" };

describe("an estimate request through the running app", () => {
  let receiver: WebhookReceiver;
  let smtp: SmtpReceiver;
  let app: AppServer;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startSmtpReceiver();
    app = await startAppServer({
      env: {
        WEBHOOK_ESTIMATE_URL: `${receiver.url}hooks/estimate`,
        SMTP_URL: smtp.smtpUrl,
        STAFF_NOTIFY_EMAIL: "office@example.com",
        MAIL_FROM: "Website <website@example.com>",
      },
    });
  });
  afterAll(async () => {
    await app.stop();
    await receiver.close();
    await smtp.close();
  });

  it("reaches the webhook in the original shape and the office by email, after a plain HTML form post", async () => {
    const response = await fetch(`${app.url}/lighting`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams(ESTIMATE),
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    const reference = /Your reference number is <strong[^>]*>(EST-[0-9A-Z]{6})</.exec(html)?.[1];
    expect(reference).toBeDefined();

    const [webhook] = await receiver.waitForRequests(1, 15_000);
    expect(webhook?.path).toBe("/hooks/estimate");
    expect(webhook?.body).toBe(JSON.stringify(ESTIMATE));
    expect(webhook?.headers["webhook-id"]).toMatch(/^msg_/);

    const [email] = await smtp.waitForMessages(1, 15_000);
    expect(email?.envelope.rcptTo).toEqual(["office@example.com"]);
    expect(email?.subject).toBe(`New estimate request ${reference} from Avery Placeholder`);
    expect(email?.contentTypes).toEqual(expect.arrayContaining(["text/plain", "text/html"]));
  });

  it("logs once per webhook target that is not set, at start", () => {
    const notSet = app.output.filter((line) => line.includes("is not set"));
    expect(notSet.some((line) => line.includes("WEBHOOK_ESTIMATE_URL"))).toBe(false);
    expect(notSet.filter((line) => line.includes("WEBHOOK_JOB_REQUEST_URL is not set"))).toHaveLength(1);
  });
});
