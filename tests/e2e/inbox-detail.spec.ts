import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { isNotNull, sql } from "drizzle-orm";
import { deliveries as deliveryTable } from "../../app/services/db/schema.server";
import { withAppDatabase } from "../support/app-database";
import { startAppServer } from "../support/app-server";
import { smallPdf } from "../support/application-fixture";
import { submissionIdOf } from "../support/submission-lookup";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { fillApplication, fillEstimate, sendButton, submitButton } from "./public-forms";

/** The public forms mark a form sent sooner than 3 s after it was first touched as suspicious. */
const HUMAN_FILL_MS = 3_200;

/** Reloads the page until the locator shows the text: the detail page shows the state when it was loaded. */
async function reloadUntil(page: Page, locator: Locator, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toContainText(text, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

test("a lead whose delivery failed is replayed once the receiver is up, and handled with status, assignee and a note", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  const receiver = await startWebhookReceiver();
  // Down: the first attempt gets a 503; the second is held open, so the page can be seen while it retries.
  receiver.setDefaultResponse({ status: 503, body: "down for maintenance" });
  receiver.respondWith({ status: 503, body: "down for maintenance" }, { hang: true });
  const app = await startAppServer({
    env: { WEBHOOK_ESTIMATE_URL: receiver.url, DELIVERY_RETRY_SCHEDULE: "0,1s,1s", PUBLIC_FORM_RATE_LIMIT: "1000" },
  });
  try {
    await page.goto(`${app.url}/learnmore#form`);
    await fillEstimate(page, "Commercial");
    await page.waitForTimeout(HUMAN_FILL_MS);
    await sendButton(page).click();
    const dialog = page.getByRole("dialog", { name: "success!" });
    await expect(dialog).toContainText(/EST-[0-9A-Z]{6}/);
    const reference = /EST-[0-9A-Z]{6}/.exec((await dialog.textContent()) ?? "")?.[0] ?? "";

    // An admin: where a delivery goes (a webhook URL carries secrets) is shown to admins only.
    const account = await signInAsStaff("admin", "inbox", app);

    // In the inbox the lead shows as retrying while the receiver is down; it opens from there.
    await page.goto(`${app.url}/admin/inbox?q=${reference}`);
    const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: reference }) });
    await reloadUntil(page, row, "Retrying");
    await row.getByRole("link", { name: reference }).click();
    // The customer first: their name heads the page, the request's type and reference under it.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Avery Placeholder");
    await expect(page.getByText(`Estimate request ${reference}`)).toBeVisible();
    await expect(page.getByText("Best time to reach you")).toBeVisible();
    // Each delivery in words; its setting, attempts and webhook-id in the admin's details.
    const deliveries = page.getByRole("listitem", { name: "Delivery to the estimate webhook" });
    await expect(deliveries).toHaveCount(1);
    await reloadUntil(page, deliveries, "after a failure");
    await expect(deliveries).toContainText("HTTP 503");
    await expect(deliveries.getByRole("button", { name: "Replay" })).toHaveCount(0);

    receiver.releaseHanging({ status: 503, body: "still down" });
    await reloadUntil(page, deliveries, "Failed");
    await expect(deliveries).toContainText("Attempts: 3.");
    await expect(deliveries.locator("ol > li")).toHaveCount(3);
    await expectNoAxeViolations(page, "detail page with a failed delivery");
    const detailUrl = page.url();
    await page.goto(`${app.url}/admin/inbox?q=${reference}`);
    await expect(row).toContainText("Failed");
    await page.goto(detailUrl);

    receiver.setDefaultResponse({ status: 200, body: "ok" });
    // Where the replay will go is shown before it is made: the URL configured now.
    await deliveries.getByText("Details for admins").click();
    await expect(deliveries.getByText(`A replay goes to ${receiver.url}.`)).toBeVisible();
    await deliveries.getByRole("button", { name: "Replay" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `will be sent again now, to ${receiver.url}` }),
    ).toBeVisible();
    await expect(deliveries).toHaveCount(2);
    await reloadUntil(page, deliveries.nth(1), "Sent to the estimate webhook");
    await expect(deliveries.nth(0)).toContainText("Failed");
    // Delivered now: sent again only by an admin, once a day, from its newest send, after a second press.
    await expect(deliveries.getByRole("button", { name: "Replay" })).toHaveCount(0);
    await expect(deliveries.nth(1)).toContainText("It can be sent again after");
    await withAppDatabase(app.dataDir, (db) =>
      db
        .update(deliveryTable)
        .set({ createdAt: sql`now() - interval '25 hours'` })
        .where(isNotNull(deliveryTable.replayedById)),
    );
    await page.reload();
    await deliveries.nth(1).getByText("Send again...").click();
    await deliveries.nth(1).getByRole("button", { name: "Yes, send it again" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `will be sent again now, to ${receiver.url}` }),
    ).toBeVisible();
    await expect(deliveries).toHaveCount(3);

    const received = await receiver.waitForRequests(5);
    expect(received.map((request) => request.headers["webhook-id"])).toEqual(
      Array(5).fill(received[0]?.headers["webhook-id"]),
    );
    expect(received[0]?.headers["webhook-id"]).toMatch(/^msg_/);
    await expect(deliveries.nth(1)).toContainText(`webhook-id ${received[0]?.headers["webhook-id"]}`);

    // One triage form: each of status, assignee and note saved alone here (phone-lead.spec.ts saves them together).
    await page.getByLabel("Status").selectOption("Contacted");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Status set to Contacted\.$/ })).toBeVisible();
    await page.getByLabel("Assignee").selectOption({ label: account.username });
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Assigned to ${account.username}.` })).toBeVisible();
    await page.getByLabel("Internal note").fill("Called back, <b>site visit</b> on Tuesday.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Note added\.$/ })).toBeVisible();

    const notes = page.getByRole("region", { name: "Notes" });
    await expect(notes.getByRole("listitem")).toHaveText([
      new RegExp(`^${account.username}, .+Called back, <b>site visit</b> on Tuesday\\.$`),
    ]);
    const history = page.getByRole("region", { name: "Change history" }).getByRole("listitem");
    await expect(history).toHaveText([
      new RegExp(`${account.username} replayed the delivery to the estimate webhook$`),
      new RegExp(`${account.username} replayed the delivery to the estimate webhook$`),
      new RegExp(`${account.username} changed the status from New to Contacted$`),
      new RegExp(`${account.username} changed the assignee from no one to ${account.username}$`),
      new RegExp(`${account.username} added a note$`),
    ]);
    await expect(page.getByRole("definition").filter({ hasText: /^Contacted/ })).toBeVisible();
    await expectNoAxeViolations(page, "detail page after handling");
  } finally {
    await app.stop();
    await receiver.close();
  }
});

test("a resume sent with an application downloads byte for byte, under a name made from the reference", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(60_000);
  const resume = smallPdf("Resume of the download test");
  await page.goto("/apply");
  await fillApplication(page);
  await page
    .getByLabel(/Resume/)
    .setInputFiles({ name: "Jordan Résumé.pdf", mimeType: "application/pdf", buffer: resume });
  await submitButton(page).click();
  const confirmation = page.getByRole("status").filter({ hasText: "Application submitted successfully!" });
  await expect(confirmation).toContainText(/APP-[0-9A-Z]{6}/);
  const reference = /APP-[0-9A-Z]{6}/.exec((await confirmation.textContent()) ?? "")?.[0] ?? "";

  await signInAsStaff("staff", "resume");
  await page.goto(`/admin/inbox/${await submissionIdOf(process.env.E2E_DATA_DIR ?? "", reference)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jordan Placeholder");
  await expect(page.getByText(`Job application ${reference}`)).toBeVisible();
  await expect(page.getByText("Desired role")).toBeVisible();

  const downloading = page.waitForEvent("download");
  const link = page.getByRole("link", { name: `Download ${reference}-resume.pdf` });
  // The sender's own name is shown as text beside it, never used as the file's name.
  await expect(link.locator("xpath=..")).toContainText("sent as \u201cJordan Résumé.pdf\u201d");
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${reference}-resume.pdf`);
  expect(sha256(await readFile(await download.path()))).toBe(sha256(resume));
  await expectNoAxeViolations(page, "application detail page");
});
