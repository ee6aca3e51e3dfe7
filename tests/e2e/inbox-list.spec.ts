import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { parseCsv } from "../support/csv-parser";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { followStaffNavigation } from "./staff-users";

/** The public form marks a submission sent sooner than this after it was first touched as suspicious. */
const HUMAN_FILL_MS = 3_000;

const randomLetters = () =>
  Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/** Sends an estimate request through the public form, as a visitor would, and returns its reference. */
async function submitEstimate(page: Page, lastName: string, phone: string) {
  await page.goto("/learnmore#form");
  const opened = Date.now();
  const form = page.locator("#form");
  await form.getByLabel("First name").fill("Robin<script>alert(1)</script>");
  await form.getByLabel("Last name").fill(lastName);
  await form.getByLabel("Email").fill(`${lastName}@example.com`);
  await form.getByLabel("Phone").fill(phone);
  await form.getByLabel("City").fill("@SUM(A1:A9)");
  await form.getByRole("radio", { name: "Commercial" }).check();
  await form.getByLabel("Preferred form of contact").fill("-2 text me");
  await form.getByLabel("Best time to reach you").fill("+1 evening");
  await form.getByLabel("Comments").fill('=HYPERLINK("http://evil.example","click")');
  await page.waitForTimeout(Math.max(0, HUMAN_FILL_MS + 200 - (Date.now() - opened)));
  await page.getByRole("button", { name: "Request a free estimate" }).click();
  const dialog = page.getByRole("dialog", { name: "success!" });
  await expect(dialog).toContainText(/Your reference number is EST-[0-9A-Z]{6}\./);
  const reference = /EST-[0-9A-Z]{6}/.exec((await dialog.textContent()) ?? "")?.[0];
  if (!reference) throw new Error("no reference in the success dialog");
  return reference;
}

test("a public estimate shows in the inbox, is found by filter and search, and exports as safe CSV", async ({
  page,
  signInAsStaff,
}) => {
  // A visitor's pause before sending, two axe runs and a CSV download.
  test.setTimeout(60_000);
  const lastName = `Inboxtest${randomLetters()}`;
  const phoneDigits = `803555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
  const reference = await submitEstimate(
    page,
    lastName,
    `(${phoneDigits.slice(0, 3)}) ${phoneDigits.slice(3, 6)}-${phoneDigits.slice(6)}`,
  );

  await signInAsStaff("staff", "inbox");
  await page.goto("/admin/quick-links");
  await followStaffNavigation(page, "Inbox");
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: reference }) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`Robin<script>alert(1)</script> ${lastName}`);
  await expect(row).toContainText("Not sent");
  await expectNoAxeViolations(page, "inbox list");

  // Type and status: the status list follows the chosen type.
  await page.getByText("More filters").click();
  await page.getByLabel("Type").selectOption({ label: "Estimate request" });
  await page.getByLabel("Status").selectOption("New");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/admin\/inbox\?type=estimate&status=New$/);
  await expect(page.getByRole("link", { name: reference })).toBeVisible();

  // The search by phone digits narrows the list to this one submission.
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);
  // The URL changes before React shows the new page, whose filter form starts afresh: typing before it would be lost.
  await expect(page.getByLabel("Type")).toHaveValue("");
  await page.getByLabel("Search").fill(phoneDigits);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/inbox\\?q=${phoneDigits}$`));
  await expect(page.getByRole("link", { name: /EST-[0-9A-Z]{6}$/ })).toHaveCount(1);
  await expect(page.getByRole("link", { name: reference })).toBeVisible();

  await page.getByLabel("Search").fill(lastName.toUpperCase());
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("link", { name: /EST-[0-9A-Z]{6}$/ })).toHaveCount(1);
  await expectNoAxeViolations(page, "searched inbox list");

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download these as CSV (all pages)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^inbox-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parseCsv(bytes.subarray(3).toString("utf8"));
  expect(rows).toHaveLength(1);
  const cell = (label: string) => rows[0]?.[header?.indexOf(label) ?? -1];
  expect(cell("Reference")).toBe(reference);
  expect(cell("First name")).toBe("Robin<script>alert(1)</script>");
  expect(cell("Comments")).toBe(`'=HYPERLINK("http://evil.example","click")`);
  expect(cell("City")).toBe("'@SUM(A1:A9)");
  expect(cell("Preferred form of contact")).toBe("'-2 text me");
  expect(cell("Best time to reach you")).toBe("'+1 evening");
  expect(cell("Phone")).toMatch(/^\(803\) 555-\d{4}$/);
});

test("a bad filter in the URL shows what to fix, and the dashboard links to the inbox", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "inboxfilter");
  await page.goto("/admin/quick-links");
  await page.getByRole("link", { name: "Visit Link: Inbox" }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);
  await page.goto("/admin/inbox?type=estimate&status=Hired&q=ab");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Choose a status of the chosen type");
  await expect(alert).toContainText("Search for at least 3 characters");
  await expectNoAxeViolations(page, "inbox with a bad filter");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form still filters, through a plain GET", async ({ page, signInAsStaff }) => {
    await signInAsStaff("staff", "inboxnojs");
    await page.goto("/admin/inbox");
    await page.getByLabel("Search").fill("no-such-person-anywhere");
    await page.getByText("More filters").click();
    await page.getByLabel("Spam").selectOption({ label: "Spam and not spam" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/admin\/inbox\?q=no-such-person-anywhere&.*spam=all/);
    await expect(page.getByText("Nothing matches these filters.")).toBeVisible();
    await expect(page.getByLabel("Search")).toHaveValue("no-such-person-anywhere");
  });
});
