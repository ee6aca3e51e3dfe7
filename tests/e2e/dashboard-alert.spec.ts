import type { Locator, Page } from "@playwright/test";
import { startAppServer } from "../support/app-server";
import { postEstimate } from "../support/estimate-post";
import { startSmtpReceiver } from "../support/smtp-receiver";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const OFFICE = "office@example.com";

/** Reloads the page until the locator shows the text: the dashboard shows the alerts as they were when loaded. */
async function reloadUntil(page: Page, locator: Locator, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toContainText(text, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
}

test("an email the mail server refuses raises the admin's dashboard alert until acknowledged, and a new refusal raises it again", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  const smtp = await startSmtpReceiver();
  smtp.refuseRecipient(OFFICE, "550 5.1.1 no such user");
  // A day between tries: only a permanent refusal can fail the email within the test.
  const app = await startAppServer({
    env: {
      SMTP_URL: smtp.smtpUrl,
      MAIL_FROM: "Tri-County Electric <outbox@example.com>",
      STAFF_NOTIFY_EMAIL: OFFICE,
      DELIVERY_RETRY_SCHEDULE: "0,24h",
      PUBLIC_FORM_RATE_LIMIT: "1000",
    },
  });
  try {
    await signInAsStaff("admin", "dashboard", app);
    expect((await postEstimate(`${app.url}/learnmore`)).reference).toBeDefined();

    await page.goto(`${app.url}/admin/quick-links`);
    const alerts = page.getByRole("region", { name: "Needs attention" });
    await reloadUntil(page, alerts, "Failed deliveries: emails to 1 person.");
    await expect(alerts.getByRole("link", { name: "See the submissions with a failed delivery" })).toHaveAttribute(
      "href",
      "/admin/inbox?delivery=failed",
    );
    await expectNoAxeViolations(page, "the dashboard with an alert");

    await alerts.getByRole("button", { name: "Acknowledge" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Acknowledged" })).toHaveText(
      "Acknowledged: these failures no longer raise the alert. A new one will.",
    );
    await expect(alerts).toHaveCount(0);
    await page.reload();
    await expect(alerts).toHaveCount(0);

    // Another request (the same answers would be the same submission, sent twice).
    expect((await postEstimate(`${app.url}/learnmore`, { comments: "A second panel" })).reference).toBeDefined();
    await reloadUntil(page, alerts, "Failed deliveries: emails to 1 person.");
    expect(smtp.messages).toEqual([]);
  } finally {
    await app.stop();
    await smtp.close();
  }
});
