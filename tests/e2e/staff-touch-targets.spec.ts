import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";

/** The smallest height a finger hits reliably: Apple's and WCAG 2.5.5's 44 CSS pixels. */
const MIN_TARGET = 44;

/** Every button, and every link drawn as one, shown on the page and less than MIN_TARGET tall, by its name. */
function smallButtons(page: Page) {
  return page
    .locator("button, input[type=submit], input[type=button], [role=button], a.button-primary, a.button-secondary")
    .evaluateAll((controls, minimum) => {
      const small: string[] = [];
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
        if (box.height >= minimum) continue;
        const name = control.getAttribute("aria-label") || control.textContent?.trim() || control.outerHTML;
        small.push(`${name} (${box.height.toFixed(1)} px)`);
      }
      return small;
    }, MIN_TARGET);
}

async function expectNoSmallButtons(page: Page, path: string) {
  // The page's own heading: the screen is drawn, with the controls it starts with.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await smallButtons(page), path).toEqual([]);
}

test("every button on the staff pages is at least 44 px tall on a phone", async ({ page, signInAsStaff }) => {
  test.setTimeout(90_000);
  const admin = await signInAsStaff("admin", "targets");
  const screens = [
    "/admin/quick-links",
    "/admin/inbox",
    "/admin/staff",
    `/admin/staff/${admin.id}`,
    "/admin/account",
    "/admin/account/two-factor",
    "/admin/quick-links/peer-review",
    "/admin/peer-review-report",
    "/admin/quick-links/estimate-request",
    "/admin/quick-links/team-communication",
    "/admin/quick-links/team-communication/history",
    "/admin/staff-directory",
  ];
  for (const path of screens) {
    await page.goto(path);
    await expectNoSmallButtons(page, path);
  }

  // The checklist with a photo in its list: its Remove and Discard draft buttons show.
  await page.goto("/admin/quick-links/estimate-checklist");
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#aa3333" } })
    .jpeg()
    .toBuffer();
  await page.getByLabel("Choose photos").setInputFiles([{ name: "panel.jpg", mimeType: "image/jpeg", buffer: photo }]);
  await expect(page.getByRole("button", { name: "Remove panel.jpg" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Discard draft" })).toBeVisible();
  await expectNoSmallButtons(page, "the estimate checklist with a photo");

  // A job request, sent and then opened from the inbox: the submission's page with its actions.
  const jobName = `Touch target job ${Date.now()}`;
  await page.goto("/admin/quick-links/job-request");
  await expectNoSmallButtons(page, "/admin/quick-links/job-request");
  await page.getByLabel("Job Name").fill(jobName);
  await page.getByLabel("Job Address").fill("1 Main Street, Sumter, SC");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Your job request has been submitted successfully!")).toBeVisible();
  await page.goto(`/admin/inbox?q=${encodeURIComponent(jobName)}`);
  await page.getByRole("link", { name: /JOB-[0-9A-Z]{6}$/ }).click();
  await expect(page).toHaveURL(/\/admin\/inbox\/\d+\?q=/);
  await expectNoSmallButtons(page, "a submission's page");
});
