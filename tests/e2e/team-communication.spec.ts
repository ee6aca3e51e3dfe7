import type { Locator, Page, Route } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { type SmtpReceiver, startSmtpReceiver } from "../support/smtp-receiver";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addStaffAccount, signInThroughForm } from "./staff-users";

const SCREEN = "/admin/quick-links/team-communication";
const TWILIO_SID = "AC00000000000000000000000000000001";

const twilioCreated = {
  status: 201,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ sid: "SM1", status: "queued" }),
};
const twilioInvalidNumber = {
  status: 400,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 }),
};

// One app with its outside services for the file; its tests build on each other's directory.
test.describe.configure({ mode: "serial" });

let app: AppServer;
let smtp: SmtpReceiver;
let twilio: WebhookReceiver;
let automation: WebhookReceiver;
let admin: { username: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [smtp, twilio, automation] = await Promise.all([startSmtpReceiver(), startWebhookReceiver(), startWebhookReceiver()]);
  twilio.setDefaultResponse(twilioCreated);
  app = await startAppServer({
    env: {
      SMTP_URL: smtp.smtpUrl,
      MAIL_FROM: "Office <office@example.com>",
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: "e2e-twilio-token",
      TWILIO_FROM: "+18035550100",
      TWILIO_API_URL: twilio.url,
      WEBHOOK_TEAM_MESSAGE_URL: automation.url,
      DELIVERY_RETRY_SCHEDULE: "0",
    },
  });
  admin = addStaffAccount("admin", "teamcomm", app.dataDir);
});
test.afterAll(async () => {
  await app?.stop();
  await Promise.all([smtp?.close(), twilio?.close(), automation?.close()]);
});

async function signIn(page: Page) {
  await page.goto(`${app.url}/admin`);
  await signInThroughForm(page, admin.username, admin.password);
  await expect(page).toHaveURL(/\/admin\/quick-links$/);
}

/** Holds the requests that match until `release` is called: the screen can be seen while it waits. */
async function hold(page: Page, matches: (url: URL, method: string) => boolean) {
  const held: Route[] = [];
  let releaseAll = false;
  await page.route(
    (url) => matches(url, ""),
    async (route) => {
      if (!matches(new URL(route.request().url()), route.request().method()) || releaseAll) return route.continue();
      held.push(route);
    },
  );
  return {
    waitForHeld: () => expect.poll(() => held.length).toBeGreaterThan(0),
    release: async () => {
      releaseAll = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

const checkbox = (page: Page, name: string) => page.getByRole("checkbox", { name: new RegExp(`^${name}`) });
const search = (page: Page) => page.getByRole("searchbox", { name: "Search technicians by name" });

/** A recipient's row in a message of the history, by the message's subject. */
function recipientRow(page: Page, subject: string, name: string): Locator {
  const message = page.getByRole("article").filter({ has: page.getByRole("heading", { name: subject }) });
  return message.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
}

async function reloadUntil(page: Page, locator: Locator, text: string | RegExp) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test("an admin keeps the staff directory: adds, edits and deactivates people", async ({ page }) => {
  await signIn(page);
  await page.goto(`${app.url}/admin/staff-directory`);
  await expect(page.getByRole("heading", { level: 1, name: "Staff directory" })).toBeVisible();
  const addForm = page.getByRole("region", { name: "Add a person" });
  const add = async (name: string, email: string, mobile: string) => {
    await addForm.getByLabel("Name").fill(name);
    await addForm.getByLabel("Email").fill(email);
    await addForm.getByLabel("Mobile number").fill(mobile);
    await addForm.getByRole("button", { name: "Add" }).click();
  };
  await add("Ana Ruiz", "ana@example.com", "(803) 555-0141");
  await expect(addForm.getByRole("status")).toHaveText("Ana Ruiz was added.");
  await add("Ben Okafor", "", "803-555-0142");
  await expect(addForm.getByRole("status")).toHaveText("Ben Okafor was added.");
  await add("Cy Vance", "cy@example.com", "");
  await expect(addForm.getByRole("status")).toHaveText("Cy Vance was added.");
  await add("Dee Gone", "dee@example.com", "call the office");
  await expect(addForm.getByRole("alert")).toHaveText("Please correct the fields below.");
  await expect(addForm.getByText("Enter a mobile number we can text")).toBeVisible();
  await addForm.getByLabel("Mobile number").fill("803 555 0144");
  await addForm.getByRole("button", { name: "Add" }).click();
  await expect(addForm.getByRole("status")).toHaveText("Dee Gone was added.");
  await expectNoAxeViolations(page, "staff directory");

  const cy = page.getByRole("listitem", { name: "Cy Vance" });
  await cy.getByLabel("Email").fill("cy.vance@example.com");
  await cy.getByRole("button", { name: "Save" }).click();
  await expect(cy.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByRole("listitem", { name: "Cy Vance" }).getByLabel("Email")).toHaveValue(
    "cy.vance@example.com",
  );

  const dee = page.getByRole("listitem", { name: "Dee Gone" });
  await dee.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByRole("listitem", { name: /Dee Gone.*deactivated/ })).toBeVisible();
});

test("the message screen: placeholders, Select All and Clear All, the no-recipient message, Sending..., and a success that clears", async ({
  page,
}) => {
  await signIn(page);
  await page.clock.install();
  await page.goto(`${app.url}${SCREEN}`);
  await expect(page.getByRole("heading", { level: 1, name: "Team Communication" })).toBeVisible();
  await expect(page.getByText("Sends an email and a text message")).toBeVisible();
  await expect(search(page)).toHaveAttribute("placeholder", "Select technicians...");
  await expect(page.getByRole("checkbox")).toHaveCount(3);
  await expect(checkbox(page, "Ana Ruiz")).toBeVisible();
  await expect(page.getByText("Dee Gone")).toHaveCount(0);
  await expectNoAxeViolations(page, "team communication");

  // Nobody chosen: the spec's words, in the banner above the form, and the answers kept.
  await page.getByLabel("Subject").fill("Storm crew tonight");
  await page.getByLabel("Body").fill("Meet at the yard at 6 pm.");
  await expect(page.getByText("25 of 1600 characters")).toBeVisible();
  await page.getByRole("button", { name: "Send Message" }).click();
  const banner = page
    .getByRole("alert")
    .filter({ hasText: "Please select at least one technician to send the message to." });
  await expect(banner).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("Storm crew tonight");
  const bannerBox = await banner.boundingBox();
  const searchBox = await search(page).boundingBox();
  expect((bannerBox?.y ?? 0) < (searchBox?.y ?? 0)).toBe(true);

  await page.getByRole("button", { name: "Select All" }).click();
  for (const name of ["Ana Ruiz", "Ben Okafor", "Cy Vance"]) await expect(checkbox(page, name)).toBeChecked();
  await page.getByRole("button", { name: "Clear All" }).click();
  for (const name of ["Ana Ruiz", "Ben Okafor", "Cy Vance"]) await expect(checkbox(page, name)).not.toBeChecked();

  // Searching by name, then choosing with the keyboard.
  await search(page).fill("oka");
  await expect(checkbox(page, "Ana Ruiz")).toBeHidden();
  await checkbox(page, "Ben Okafor").focus();
  await page.keyboard.press("Space");
  await expect(checkbox(page, "Ben Okafor")).toBeChecked();
  await search(page).fill("");
  await checkbox(page, "Ana Ruiz").check();

  // From here the page's clock moves only when told: 4 s after the success the banner is there; past 5 s, gone.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
  const sending = await hold(page, (url, method) => url.pathname.endsWith(`${SCREEN}.data`) && method !== "GET");
  await page.getByRole("button", { name: "Send Message" }).click();
  await sending.waitForHeld();
  await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
  await sending.release();
  const success = page.getByRole("status").filter({ hasText: "Message sent successfully!" });
  await expect(success).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("");
  await expect(page.getByLabel("Body")).toHaveValue("");
  for (const name of ["Ana Ruiz", "Ben Okafor", "Cy Vance"]) await expect(checkbox(page, name)).not.toBeChecked();
  await page.clock.runFor(4_000);
  await expect(success).toBeVisible();
  await page.clock.runFor(1_100);
  await expect(success).toBeHidden();

  // The message went out: Ana by email and text, Ben by text.
  const emails = await smtp.waitForMessages(1);
  expect(emails.map((email) => email.envelope.rcptTo)).toEqual([["ana@example.com"]]);
  await expect.poll(() => twilio.requests.length).toBe(2);
  const [hook] = await automation.waitForRequests(1);
  expect(JSON.parse(hook?.body ?? "{}")).toMatchObject({
    subject: "Storm crew tonight",
    sender: "Team Communication System",
  });
});

test("a failed send keeps the form; the history shows each recipient's state and retries a failed text", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto(`${app.url}${SCREEN}`);
  // Select All shows once the page has hydrated; before that Send Message posts without JavaScript,
  // past the blocked data request this test sets up.
  await expect(page.getByRole("button", { name: "Select All" })).toBeVisible();
  await checkbox(page, "Ben Okafor").check();
  await page.getByLabel("Subject").fill("Gate code");
  await page.getByLabel("Body").fill("The gate code is 4321.");

  // The server cannot be reached: the spec's failure message, and nothing is lost.
  await page.route(
    (url) => url.pathname.endsWith(`${SCREEN}.data`),
    (route) => (route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue()),
  );
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed to send message. Please try again." })).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("Gate code");
  await expect(page.getByLabel("Body")).toHaveValue("The gate code is 4321.");
  await expect(checkbox(page, "Ben Okafor")).toBeChecked();
  await page.unrouteAll();

  twilio.setDefaultResponse(twilioInvalidNumber);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Message sent successfully!" })).toBeVisible();

  await page.getByRole("link", { name: "Message history" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Message history" })).toBeVisible();
  const ben = recipientRow(page, "Gate code", "Ben Okafor");
  await reloadUntil(page, ben, "Failed: Not a valid phone number (Twilio 21211)");
  await expect(ben).toContainText("No email address");
  await expectNoAxeViolations(page, "message history");

  twilio.setDefaultResponse(twilioCreated);
  // A reload at once would cancel the retry's post before it reached the server.
  const retried = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/inbox/"));
  await ben.getByRole("button", { name: "Retry the text to Ben Okafor" }).click();
  await retried;
  await reloadUntil(page, ben, "Sent");
  await expect(recipientRow(page, "Storm crew tonight", "Ana Ruiz")).toContainText(/Sent.*Sent/);
});
