import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { PEER_REVIEW_STATEMENTS } from "../../app/features/peer-review/statements";
import { pdfText } from "../support/pdf-reading";
import { allRated, peerReviewFields } from "../support/peer-review-fixture";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const REPORT = "/admin/peer-review-report";

/**
 * Sends a review as the signed-in user, as the questionnaire's form posts it without JavaScript: the
 * browser's session cookie, from the page's origin.
 */
async function postReview(page: Page, baseURL: string, reviewFor: string, ratings: readonly string[]) {
  const cookie = (await page.context().cookies(baseURL)).map(({ name, value }) => `${name}=${value}`).join("; ");
  const response = await fetch(`${baseURL}/admin/quick-links/peer-review`, {
    method: "POST",
    headers: { cookie, origin: baseURL },
    body: new URLSearchParams(peerReviewFields(reviewFor, ratings)),
  });
  expect(response.status, await response.text()).toBe(200);
}

// Statement 1 gets 5, 4 and NE; statement 2 gets 1, 2 and 2; the rest 3, 4 and 5.
const REVIEWS = [
  ["5", "1", ...allRated("3").slice(2)],
  ["4", "2", ...allRated("4").slice(2)],
  ["NE", "2", ...allRated("5").slice(2)],
];

test("the report shows no numbers below 3 reviews, the averages from 3, and never a reviewer's name", async ({
  page,
  signInAsStaff,
  baseURL,
}, testInfo) => {
  test.setTimeout(60_000);
  const person = `Report ${testInfo.project.name} ${Date.now().toString(36)}`;
  const spellings = [person, `  ${person.toLowerCase()} `, person.toUpperCase()];
  const reviewers: string[] = [];
  const section = () => page.getByRole("region", { name: person, exact: true });

  for (const [index, ratings] of REVIEWS.entries()) {
    reviewers.push((await signInAsStaff("staff", `reviewer${index}`)).username);
    await postReview(page, baseURL ?? "", spellings[index] ?? person, ratings);
    if (index !== 1) continue;
    await signInAsStaff("admin", "report-early");
    await page.goto(REPORT);
    await expect(section()).toContainText("2 reviews");
    await expect(section()).toContainText("Not enough reviews yet (2 of 3).");
    await expect(section().getByRole("table")).toHaveCount(0);
    await expect(section()).not.toContainText(/\d\.\d\d/);
  }

  await signInAsStaff("admin", "report");
  await page.goto(REPORT);
  await expect(section()).toContainText("3 reviews");
  const rows = section().getByRole("row");
  await expect(rows.nth(1)).toHaveText(`1${PEER_REVIEW_STATEMENTS[0]}4.502`);
  await expect(rows.nth(2)).toHaveText(`2${PEER_REVIEW_STATEMENTS[1]}1.673`);
  await expect(rows.nth(15)).toHaveText(`15${PEER_REVIEW_STATEMENTS[14]}4.003`);
  const overall = ((5 + 4 + 1 + 2 + 2 + 13 * 12) / 44).toFixed(2);
  await expect(section()).toContainText(`Overall average: ${overall}`);
  await expect(section().locator("dl")).toContainText("1 (Never):1");
  await expect(section().locator("dl")).toContainText("NE (No Experience):1");
  await expectNoAxeViolations(page, "the peer review report");

  const html = await page.content();
  for (const reviewer of reviewers) expect(html).not.toContain(reviewer);

  const downloading = page.waitForEvent("download");
  await section()
    .getByRole("link", { name: /report \(PDF\)/ })
    .click();
  const text = (await pdfText(new Uint8Array(await readFile(await (await downloading).path())))).replace(/\s+/g, " ");
  expect(text).toContain(`Peer Review for: ${person}`);
  expect(text).toContain(`Overall average: ${overall}`);
  for (const reviewer of reviewers) expect(text).not.toContain(reviewer);

  // The individual reviews are for admins: a staff user gets 403 on the report and on a review.
  await page.goto(`/admin/inbox?type=peer-review&q=${encodeURIComponent(person)}`);
  await page
    .getByRole("link", { name: /PRV-[0-9A-Z]{6}$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/inbox\/\d+\?/);
  const reviewUrl = page.url();
  await signInAsStaff("staff", "report-refused");
  expect((await page.goto(REPORT))?.status()).toBe(403);
  expect((await page.goto(reviewUrl))?.status()).toBe(403);
});
