import type { Locator, Page } from "@playwright/test";
import { PAST_DATE_WARNING, SHORT_PHONE_WARNING } from "../../app/forms/soft-checks";
import { appDatabaseOutage } from "../support/app-database-outage";
import { startAppServer } from "../support/app-server";
import { JOB_LABELS, validEstimateRequest, validJobRequest } from "../support/staff-request-fixture";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const ESTIMATE_PATH = "/admin/quick-links/estimate-request";
const JOB_PATH = "/admin/quick-links/job-request";
const NARROW_PHONE = { width: 360, height: 740 };
const REQUIRED = "Please fill in all required fields.";
const FAILED = "There was an error submitting your request. Please try again.";

const ESTIMATE_LABELS: Record<keyof typeof validEstimateRequest, string> = {
  jobName: "Job Name",
  jobAddress: "Job Address",
  estimateNumber: "Estimate Number",
  contactPerson: "Contact Person",
  phone: "Phone Number",
  email: "Email Address",
  customerName: "Customer Name",
  customerBillingAddress: "Customer Billing Address",
  description: "Brief Description of Work Needed",
  appointment: "Appointment for estimate",
  appointmentTime: "Appointment Time",
  submittedBy: "Submitted By",
  notes: "Notes",
};

/** A field by its label, which reads "Label (optional)" for an optional one. */
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(optional\\))?$`));

async function fill(page: Page, labels: Record<string, string>, values: Record<string, string>) {
  for (const [name, label] of Object.entries(labels)) await field(page, label).fill(values[name] ?? "");
}

async function expectValues(page: Page, labels: Record<string, string>, values: Record<string, string>) {
  for (const [name, label] of Object.entries(labels)) await expect(field(page, label)).toHaveValue(values[name] ?? "");
}

/** The banner's background as the screen shows it, in red, green and blue. */
async function backgroundOf(banner: Locator) {
  return banner.evaluate((element) => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const drawing = canvas.getContext("2d");
    if (!drawing) throw new Error("no canvas");
    drawing.fillStyle = getComputedStyle(element).backgroundColor;
    drawing.fillRect(0, 0, 1, 1);
    const [red = 0, green = 0, blue = 0] = drawing.getImageData(0, 0, 1, 1).data;
    return { red, green, blue };
  });
}

async function expectGreen(banner: Locator) {
  const { red, green } = await backgroundOf(banner);
  expect(green, "a green banner").toBeGreaterThan(red);
}

async function expectRed(banner: Locator) {
  const { red, green } = await backgroundOf(banner);
  expect(red, "a red banner").toBeGreaterThan(green);
}

/** Holds the form's POST back a moment, so the page can be seen while it is sending. */
async function slowDownPosts(page: Page) {
  await page.route("**/admin/quick-links/**", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

test.beforeEach(async ({ page, isMobile }) => {
  if (isMobile) await page.setViewportSize(NARROW_PHONE);
});

test("the estimate request: from its card, required fields, Submitting..., a green success that clears the form", async ({
  page,
  signInAsStaff,
}) => {
  const user = await signInAsStaff("staff", "estimate-request");
  await page.goto("/admin/quick-links");
  await page
    .getByRole("link", { name: /Estimate Request Form/ })
    .first()
    .click();
  await expect(page).toHaveURL(ESTIMATE_PATH);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Estimate Request Form");
  await expect(field(page, "Submitted By")).toHaveValue(user.username);
  await expect(field(page, "Phone Number")).toHaveAttribute("type", "tel");
  await expect(field(page, "Email Address")).toHaveAttribute("type", "email");
  await expect(field(page, "Appointment for estimate")).toHaveAttribute("type", "date");
  await expect(field(page, "Appointment Time")).toHaveAttribute("type", "time");
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page, "estimate request form");

  await page.getByRole("button", { name: "Submit" }).click();
  const alert = page.getByRole("alert").filter({ hasText: REQUIRED });
  await expect(alert).toBeVisible();
  await expectRed(alert);
  await expectNoAxeViolations(page, "estimate request form with its required-field message");

  await fill(page, ESTIMATE_LABELS, { ...validEstimateRequest, appointment: "2020-01-06" });
  // A past date is allowed: the first press points it out beside the field, the second sends it.
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(PAST_DATE_WARNING)).toBeVisible();
  await slowDownPosts(page);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("button", { name: "Submitting..." })).toBeDisabled();
  // The old message goes as the new send starts.
  await expect(alert).toHaveCount(0);
  const success = page
    .getByRole("status")
    .filter({ hasText: "Your estimate request has been submitted successfully!" });
  await expect(success).toContainText(/ERQ-[0-9A-Z]{6}/);
  await expectGreen(success);
  await expectValues(page, ESTIMATE_LABELS, {
    submittedBy: user.username,
  });
});

test("the job request: required job name and address, an amount refused beside its field, then sent and cleared", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "job-request");
  await page.goto("/admin/quick-links");
  await page
    .getByRole("link", { name: /Job Request Form/ })
    .first()
    .click();
  await expect(page).toHaveURL(JOB_PATH);
  await expect(field(page, "Project Total Amount")).toHaveAttribute("placeholder", "$0.00");
  await expect(field(page, "Project Total Amount")).toHaveAttribute("inputmode", "decimal");
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page, "job request form");

  await field(page, "Job Name").fill("   ");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("alert").filter({ hasText: REQUIRED })).toBeVisible();

  await fill(page, JOB_LABELS, { ...validJobRequest, projectTotalAmount: "twelve grand" });
  await page.getByRole("button", { name: "Submit" }).click();
  const amount = field(page, "Project Total Amount");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Project Total Amount must be an amount in dollars, like 12,500.00")).toBeVisible();
  await expectNoAxeViolations(page, "job request form with a refused amount");

  await amount.fill(validJobRequest.projectTotalAmount);
  await slowDownPosts(page);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("button", { name: "Submitting..." })).toBeDisabled();
  const success = page.getByRole("status").filter({ hasText: "Your job request has been submitted successfully!" });
  await expect(success).toContainText(/JOB-[0-9A-Z]{6}/);
  await expectGreen(success);
  await expectValues(page, JOB_LABELS, {});
});

test("a send that fails while the database is down keeps every answer, and sends once it is back", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  const app = await startAppServer({});
  const outage = await appDatabaseOutage(app.dataDir);
  try {
    await signInAsStaff("staff", "request-outage", app);
    for (const [path, labels, values, success] of [
      [ESTIMATE_PATH, ESTIMATE_LABELS, validEstimateRequest, "Your estimate request has been submitted successfully!"],
      [JOB_PATH, JOB_LABELS, validJobRequest, "Your job request has been submitted successfully!"],
    ] as const) {
      await page.goto(`${app.url}${path}`);
      await fill(page, labels, values);
      await outage.down();
      await page.getByRole("button", { name: "Submit" }).click();
      const failed = page.getByRole("alert").filter({ hasText: FAILED });
      await expect(failed).toBeVisible();
      await expectRed(failed);
      await expectValues(page, labels, values);

      await outage.up();
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByRole("status").filter({ hasText: success })).toBeVisible();
      await expect(field(page, "Job Name")).toHaveValue("");
    }
  } finally {
    await outage.close();
    await app.stop();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("both forms send as plain posts, a warning is answered before the post that sends, and a refused amount keeps every answer", async ({
    page,
    signInAsStaff,
  }) => {
    await signInAsStaff("staff", "requests-no-js");
    await page.goto(ESTIMATE_PATH);
    const slipped = { ...validEstimateRequest, phone: "555", appointment: "2020-01-06" };
    await fill(page, ESTIMATE_LABELS, slipped);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText(SHORT_PHONE_WARNING)).toBeVisible();
    await expect(page.getByText(PAST_DATE_WARNING)).toBeVisible();
    await expectValues(page, ESTIMATE_LABELS, slipped);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Your estimate request has been submitted successfully!" }),
    ).toContainText(/ERQ-[0-9A-Z]{6}/);

    await page.goto(JOB_PATH);
    await fill(page, JOB_LABELS, { ...validJobRequest, projectTotalAmount: "lots" });
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Project Total Amount must be an amount in dollars, like 12,500.00")).toBeVisible();
    await expectValues(page, JOB_LABELS, { ...validJobRequest, projectTotalAmount: "lots" });
    await field(page, "Project Total Amount").fill("$12,500");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Your job request has been submitted successfully!" }),
    ).toContainText(/JOB-[0-9A-Z]{6}/);
  });
});
