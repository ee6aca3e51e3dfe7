import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import { RATING_MEANINGS, type Rating } from "../../app/features/peer-review/ratings";
import { PEER_REVIEW_STATEMENTS } from "../../app/features/peer-review/statements";
import { findFreePort } from "../../app/services/free-port.server";
import { startAppServer } from "../support/app-server";
import { pdfText } from "../support/pdf-reading";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const PATH = "/admin/quick-links/peer-review";
/** The narrowest phone the staff area is laid out for. */
const NARROW_PHONE = { width: 360, height: 740 };
const MISSING = "Please fill in the name, the date and a rating for every statement.";

test.beforeEach(async ({ page, isMobile }) => {
  if (isMobile) await page.setViewportSize(NARROW_PHONE);
});

/** A name no other test uses, so the report and the inbox show this test's reviews only. */
const uniqueName = (label: string, project: string) => `${label} ${project} ${Date.now().toString(36)}`;

const statementGroup = (page: Page, index: number) =>
  page.getByRole("group", { name: `${index + 1}. ${PEER_REVIEW_STATEMENTS[index]}` });

async function rate(page: Page, index: number, rating: Rating) {
  await statementGroup(page, index)
    .getByRole("radio", { name: `${rating} ${RATING_MEANINGS[rating]}` })
    .check();
}

async function fillReview(page: Page, reviewFor: string, ratings: readonly (Rating | undefined)[]) {
  await page.getByLabel("Peer Review for").fill(reviewFor);
  await page.getByLabel("Date").fill("2026-03-05");
  for (const [index, rating] of ratings.entries()) if (rating) await rate(page, index, rating);
}

const RATINGS: Rating[] = ["5", "4", "4", "3", "NE", "5", "2", "1", "4", "5", "NE", "3", "4", "5", "4"];

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

async function downloadedPdfText(download: Download) {
  const bytes = new Uint8Array(await readFile(await download.path()));
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
  return (await pdfText(bytes)).replace(/\s+/g, " ");
}

test("the Quick Links card opens the questionnaire, which fits a phone and passes axe", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "peer-card");
  await page.goto("/admin/quick-links");
  await page
    .getByRole("link", { name: /Peer Review/ })
    .first()
    .click();
  await expect(page).toHaveURL(PATH);
  await expect(page.getByRole("heading", { name: "Peer Review Questionnaire", level: 1 })).toBeVisible();
  await expect(page.getByText("compiled with other employees' answers")).toBeVisible();
  await expect(page.getByText("not told who was asked")).toBeVisible();
  await expect(page.getByRole("group", { name: /^\d+\. / })).toHaveCount(15);
  for (const rating of ["1", "2", "3", "4", "5", "NE"] as const) {
    await expect(
      statementGroup(page, 0).getByRole("radio", { name: `${rating} ${RATING_MEANINGS[rating]}` }),
    ).toBeVisible();
  }
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page, "the questionnaire");
});

test("every statement must be rated; the average counts 1 to 5 only, as one answers", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "peer-required");
  await page.goto(PATH);
  const average = page.getByText("Average score:");
  await expect(average).toContainText("N/A");
  await rate(page, 0, "NE");
  await expect(average).toContainText("N/A");
  await rate(page, 1, "5");
  await rate(page, 2, "4");
  await expect(average).toContainText("4.50");

  const ratings: (Rating | undefined)[] = [...RATINGS];
  ratings[8] = undefined;
  await fillReview(page, uniqueName("Required", "x"), ratings);
  let downloads = 0;
  page.on("download", () => downloads++);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("alert")).toContainText(MISSING);
  const missed = statementGroup(page, 8);
  await expect(missed).toHaveAttribute("aria-invalid", "true");
  await expect(missed.getByText("Please rate this statement.")).toBeVisible();
  await expect(statementGroup(page, 7)).not.toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "the questionnaire with a statement missed");
  await expectNoSidewaysScroll(page);
  // Answering the missed statement clears its mark as one goes.
  await rate(page, 8, "3");
  await expect(missed).not.toHaveAttribute("aria-invalid", "true");
  expect(downloads).toBe(0);
});

test("the server stores the review and its PDF, then the PDF is saved to the device", async ({
  page,
  signInAsStaff,
}, testInfo) => {
  await signInAsStaff("staff", "peer-download");
  await page.goto(PATH);
  const name = `Nguyễn Văn ${uniqueName("An", testInfo.project.name)}`;
  await fillReview(page, name, RATINGS);
  await expect(page.getByText("Average score:")).toContainText("3.77");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Submit" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`peer-review-${name.replace(/\s+/g, "-")}.pdf`);
  const text = await downloadedPdfText(download);
  expect(text).toContain(`Peer Review for: ${name}`);
  expect(text).toContain("Average Score: 3.77");
  await expect(page.getByRole("status").filter({ hasText: "Your peer review has been submitted." })).toBeVisible();
  // The form starts again for the next review.
  await expect(page.getByLabel("Peer Review for")).toHaveValue("");
  await expect(page.getByText("Average score:")).toContainText("N/A");
});

test("keyboard only: every statement can be answered and the review sent without a mouse", async ({
  page,
  signInAsStaff,
}, testInfo) => {
  await signInAsStaff("staff", "peer-keys");
  await page.goto(PATH);
  await page.getByLabel("Peer Review for").focus();
  const name = uniqueName("Keys", testInfo.project.name);
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Date")).toBeFocused();
  await page.keyboard.type("03052026");
  await expect(page.getByLabel("Date")).toHaveValue("2026-03-05");
  // Chromium's date box takes Tab between its month, day and year first.
  for (
    let press = 0;
    press < 3 && (await page.getByLabel("Date").evaluate((box) => box === document.activeElement));
    press++
  ) {
    await page.keyboard.press("Tab");
  }
  for (let index = 0; index < PEER_REVIEW_STATEMENTS.length; index++) {
    if (index > 0) await page.keyboard.press("Tab");
    const first = statementGroup(page, index).getByRole("radio", { name: "1 Never" });
    await expect(first).toBeFocused();
    // Space takes the focused choice; each arrow press moves to the next one and takes it.
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(statementGroup(page, index).getByRole("radio", { name: "3 Sometimes" })).toBeChecked();
  }
  await expect(page.getByText("Average score:")).toContainText("3.00");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Submit" })).toBeFocused();
  const downloading = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const text = await downloadedPdfText(await downloading);
  expect(text).toContain(`Peer Review for: ${name}`);
  expect(text).toContain("Date: 2026-03-05");
});

test("with the server stopped the answers stay on the screen, and sending again works once it is back", async ({
  page,
  signInAsStaff,
}, testInfo) => {
  test.setTimeout(120_000);
  const port = await findFreePort();
  const env = { PORT: String(port) };
  let app = await startAppServer({ env });
  try {
    await signInAsStaff("staff", "peer-offline", app);
    await page.goto(`${app.url}${PATH}`);
    const name = uniqueName("Offline", testInfo.project.name);
    await fillReview(page, name, RATINGS);

    await app.stop();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("alert")).toContainText("couldn't reach our server");
    await expect(page.getByLabel("Peer Review for")).toHaveValue(name);
    await expect(page.getByLabel("Date")).toHaveValue("2026-03-05");
    for (const [index, rating] of RATINGS.entries()) {
      await expect(
        statementGroup(page, index).getByRole("radio", { name: `${rating} ${RATING_MEANINGS[rating]}` }),
      ).toBeChecked();
    }
    await expect(page.getByText("Average score:")).toContainText("3.77");

    app = await startAppServer({ env, dataDir: app.dataDir });
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await downloadedPdfText(await downloading)).toContain(`Peer Review for: ${name}`);
  } finally {
    await app.stop();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the stored review offers its PDF to download, since nothing saved it to the device", async ({
    page,
    signInAsStaff,
  }, testInfo) => {
    await signInAsStaff("staff", "peer-no-script");
    await page.goto(PATH);
    await fillReview(page, uniqueName("NoScript", testInfo.project.name), RATINGS);
    await page.getByRole("button", { name: "Submit" }).click();
    const stored = page.getByRole("status").filter({ hasText: "Your peer review has been submitted" });
    await expect(stored).toContainText("Your peer review has been submitted.");
    await expect(stored).not.toContainText("saved to your device");
    const downloading = page.waitForEvent("download");
    await stored.getByRole("link", { name: "Download the PDF" }).click();
    expect(await downloadedPdfText(await downloading)).toContain("Peer Review Questionnaire");
  });
});
