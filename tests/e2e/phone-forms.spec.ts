import type { Page } from "@playwright/test";
import { PAST_DATE_WARNING, SHORT_PHONE_WARNING } from "../../app/forms/soft-checks";
import { validEstimateRequest } from "../support/staff-request-fixture";
import { queryAppDatabase } from "../support/submission-lookup";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/*
 * The staff forms a phone fills quickly (issue 45, item 6), at 412 and 360 px: a slip worth a second look is
 * pointed out before anything is sent, the checklist remembers who fills it in and folds, Peer Review suggests the
 * names and starts at today, and an amount opens the number keypad.
 */

const DATA_DIR = process.env.E2E_DATA_DIR ?? "";
const ESTIMATE_PATH = "/admin/quick-links/estimate-request";

/** A field by its label, which reads "Label (optional)" for an optional one. */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));

test("the estimate request warns of a past appointment and a short phone, and sends them on the second press", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "soft-checks");
  await page.goto(ESTIMATE_PATH);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  // Pressed empty first, so the form checks its answers again as they are typed (by submits of its own).
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please fill in all required fields." })).toBeVisible();
  const jobName = `Soft check ${test.info().project.name}`;
  for (const [label, value] of [
    ["Job Name", jobName],
    ["Job Address", validEstimateRequest.jobAddress],
    ["Contact Person", validEstimateRequest.contactPerson],
    ["Phone Number", "555"],
    ["Email Address", validEstimateRequest.email],
    ["Brief Description of Work Needed", validEstimateRequest.description],
    ["Appointment for estimate", "2020-01-06"],
    ["Appointment Time", validEstimateRequest.appointmentTime],
  ]) {
    await field(page, label ?? "").fill(value ?? "");
  }
  const key = await page.locator("input[name=submissionKey]").inputValue();

  await page.getByRole("button", { name: "Submit" }).click();
  // Beside its field, in view: the phone comes first, and takes the focus.
  const phoneWarning = page.getByText(SHORT_PHONE_WARNING);
  await expect(phoneWarning).toBeInViewport();
  await expect(field(page, "Phone Number")).toBeFocused();
  await expect(field(page, "Phone Number")).toHaveAccessibleDescription(SHORT_PHONE_WARNING);
  await expect(page.getByText(PAST_DATE_WARNING)).toBeVisible();
  expect(posts, "nothing is sent on the first press").toEqual([]);
  // Still the same answers under the same key: nothing typed is lost.
  await expect(field(page, "Phone Number")).toHaveValue("555");
  await expect(page.locator("input[name=submissionKey]")).toHaveValue(key);
  await expectNoAxeViolations(page, "the estimate request with its warnings");

  await page.getByRole("button", { name: "Submit" }).click();
  const success = page
    .getByRole("status")
    .filter({ hasText: "Your estimate request has been submitted successfully!" });
  await expect(success).toContainText(/ERQ-[0-9A-Z]{6}/);
  const reference = ((await success.textContent()) ?? "").match(/ERQ-[0-9A-Z]{6}/)?.[0];
  const [stored] = await queryAppDatabase<{ payload: Record<string, string> }>(
    DATA_DIR,
    "SELECT payload FROM submissions WHERE reference = $1",
    [reference],
  );
  expect(stored?.payload).toMatchObject({ jobName, phone: "555", appointment: "2020-01-06" });
  await expect(page.getByText(SHORT_PHONE_WARNING)).toHaveCount(0);

  // The job request's amount opens the number keypad.
  await page.goto("/admin/quick-links/job-request");
  await expect(field(page, "Project Total Amount")).toHaveAttribute("inputmode", "decimal");
  await expect(field(page, "Project Total Amount")).toHaveAttribute("placeholder", "$0.00");
});

test("a job request the browser checked on its day is stored when it reaches the server on a later one", async ({
  page,
  signInAsStaff,
}) => {
  // The browser's calendar a day behind the server's: a job booked for the browser's today, sent once the signal
  // comes back after midnight, has no one to answer a warning of a date that has passed since.
  const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const browserToday = yesterday.toLocaleDateString("en-CA", { timeZone: "America/New_York" });
  await page.clock.setFixedTime(yesterday);
  await signInAsStaff("staff", "soft-checks-later");
  await page.goto("/admin/quick-links/job-request");
  const jobName = `Checked yesterday ${test.info().project.name}`;
  await field(page, "Job Name").fill(jobName);
  await field(page, "Job Address").fill("12 Oak Street, Sumter, SC");
  await field(page, "Appointment for Job").fill(browserToday);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Your job request has been submitted successfully!" }),
  ).toBeVisible();
  const [stored] = await queryAppDatabase<{ payload: Record<string, string> }>(
    DATA_DIR,
    "SELECT payload FROM submissions WHERE payload->>'jobName' = $1",
    [jobName],
  );
  expect(stored?.payload).toMatchObject({ appointmentForJob: browserToday });
});

test("the checklist keeps the email for the next one, folds its sections and jumps to Photos", async ({
  page,
  signInAsStaff,
}) => {
  const user = await signInAsStaff("staff", "phone-checklist");
  await page.goto("/admin/quick-links/estimate-checklist");
  await expect(page.getByLabel("Your Name")).toHaveValue(user.username);
  await expect(page.getByLabel("ZIP Code")).toHaveAttribute("inputmode", "numeric");

  // Folding a section hides its questions; its title stays a tap target of 44 px or more.
  const siteAccess = page.locator("summary").filter({ hasText: "2. Site Access and Conditions" });
  expect((await siteAccess.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await siteAccess.click();
  await expect(page.getByLabel("Permitting Requirements")).toBeHidden();
  await siteAccess.click();
  await expect(page.getByLabel("Permitting Requirements")).toBeVisible();

  // The jump, in the first screen, opens Photos even when folded, and brings it into view.
  await page.locator("summary").filter({ hasText: "7. Photographic Documentation" }).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  const jump = page.getByRole("link", { name: "Jump to Photos (section 7)" });
  await expect(jump).toBeInViewport();
  expect((await jump.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await jump.click();
  await expect(page.getByRole("heading", { name: "7. Photographic Documentation" })).toBeInViewport();
  await expect(page.getByLabel("Panel Locations")).toBeVisible();
  await expectNoAxeViolations(page, "the checklist with a section folded");

  await page.getByLabel("Your Email").fill("pm@example.com");
  await page.getByLabel("Project Name").fill("Kept Email Plaza");
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  // Stored: the screen starts the next checklist, with the email this person sent.
  await expect(page.getByLabel("Project Name")).toHaveValue("");
  await expect(page.getByLabel("Your Email")).toHaveValue("pm@example.com");
  await page.reload();
  await expect(page.getByLabel("Your Email")).toHaveValue("pm@example.com");
  await expect(page.getByLabel("Your Name")).toHaveValue(user.username);
});

test("Peer Review suggests the staff's names and starts at today's date", async ({ page, signInAsStaff }) => {
  const technician = `Avery Technician ${test.info().project.name}`;
  await queryAppDatabase(DATA_DIR, "INSERT INTO staff_directory (name, is_active) VALUES ($1, true)", [technician]);
  const user = await signInAsStaff("staff", "phone-peer-review");
  await page.goto("/admin/quick-links/peer-review");
  const reviewFor = page.getByLabel("Peer Review for");
  const suggestions = await reviewFor.evaluate((input) =>
    Array.from((input as HTMLInputElement).list?.options ?? [], (option) => option.value),
  );
  expect(suggestions).toEqual(expect.arrayContaining([technician, user.username]));
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  await expect(page.getByLabel("Date")).toHaveValue(today);
  // Still free text: a name not in the list is taken as typed.
  await reviewFor.fill("Someone New");
  await expect(reviewFor).toHaveValue("Someone New");
});
