import type { Locator } from "@playwright/test";
import { smallPdf } from "../support/application-fixture";
import { expect, test } from "./fixtures";
import { fillApplication, submitButton, yesNo } from "./public-forms";

async function expectHighlighted(field: Locator) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveCSS("border-top-width", "2px");
}

test("a full application with its follow-up questions and a PDF resume is sent, confirmed and the form reset", async ({
  page,
}) => {
  await page.goto("/apply");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join Our Team");
  await expect(page.getByText("Career Application", { exact: true })).toBeVisible();
  await fillApplication(page);

  const licenseNumber = page.getByLabel("Driver's license number");
  await expect(yesNo(page, "Do you have a driver's license?", "No")).toBeChecked();
  await expect(licenseNumber).toBeHidden();
  await yesNo(page, "Do you have a driver's license?", "Yes").check();
  await expect(licenseNumber).toBeVisible();
  await licenseNumber.fill("SC-7654321");

  const explanation = page.getByLabel("Please explain your criminal background");
  await expect(explanation).toBeHidden();
  await yesNo(page, "Do you have a criminal background?", "Yes").check();
  await expect(explanation).toBeVisible();
  await explanation.fill("A traffic matter in 2015.");

  await page
    .getByLabel(/Resume/)
    .setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: smallPdf() });
  await submitButton(page).click();

  await expect(page.getByRole("status")).toContainText("Application submitted successfully!");
  await expect(page.getByRole("status")).toContainText(/APP-[0-9A-Z]{6}/);
  await expect(page.getByRole("status")).toBeInViewport();
  await expect(page.getByRole("status")).toBeFocused();
  await expect(page.getByLabel("First name")).toHaveValue("");
  await expect(page.getByLabel("Years of experience")).toHaveValue("");
  await expect(yesNo(page, "Do you have a driver's license?", "No")).toBeChecked();
  await expect(licenseNumber).toBeHidden();
  await expect(page.getByLabel(/Resume/)).toHaveValue("");
});

test("missing answers are marked red with the message, focus goes to the first, and editing clears its mark", async ({
  page,
}) => {
  await page.goto("/apply");
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts++;
  });
  await page.getByLabel("Last name").fill("Placeholder");
  await submitButton(page).click();

  await expect(page.getByRole("alert")).toHaveText("Please fill in all required fields");
  const firstName = page.getByLabel("First name");
  await expect(firstName).toBeFocused();
  await expectHighlighted(firstName);
  await expect(page.getByLabel("Last name")).not.toHaveAttribute("aria-invalid", "true");
  await expectHighlighted(page.getByRole("group", { name: "Are you willing to travel?" }));
  await expect(page.getByText("This field is required.").first()).toBeVisible();
  await expect(page.getByLabel("Years of experience")).toHaveAttribute("aria-invalid", "true");

  await firstName.fill("Jordan");
  await expect(firstName).not.toHaveAttribute("aria-invalid", "true");
  await yesNo(page, "Are you willing to travel?", "Yes").check();
  await expect(page.getByRole("group", { name: "Are you willing to travel?" })).not.toHaveAttribute(
    "aria-invalid",
    "true",
  );
  expect(posts).toBe(0);
});

test("a resume over 5 MB is refused with the message and not kept", async ({ page }) => {
  await page.goto("/apply");
  const resume = page.getByLabel(/Resume/);
  const big = Buffer.concat([smallPdf(), Buffer.alloc(5 * 1024 * 1024)]);
  await resume.setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: big });
  await expect(page.getByRole("alert")).toHaveText("File size should be less than 5MB");
  await expect(resume).toHaveValue("");
  await resume.setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: smallPdf() });
  await expect(page.getByText("File size should be less than 5MB")).toBeHidden();
});

test("when the server cannot be reached, the error shows and every answer is kept", async ({ page }) => {
  await page.goto("/apply");
  await fillApplication(page);
  await page
    .getByLabel(/Resume/)
    .setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: smallPdf() });
  await page.route("**/apply.data*", (route) =>
    route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue(),
  );
  await submitButton(page).click();
  await expect(page.getByRole("alert")).toHaveText(
    "We could not confirm that your application arrived. Your answers and your resume are still here: sending again is safe, it will not be stored twice.",
  );
  await expect(page.getByRole("alert")).toBeInViewport();
  await expect(page.getByLabel("First name")).toHaveValue("Jordan");
  await expect(page.getByLabel("Years of experience")).toHaveValue("0");
  await expect(yesNo(page, "Are you willing to travel?", "Yes")).toBeChecked();
  await expect(page.getByLabel(/Resume/)).toHaveValue(/resume\.pdf$/);

  await page.unroute("**/apply.data*");
  await submitButton(page).click();
  await expect(page.getByRole("status")).toContainText("Application submitted successfully!");
});

test("a fake PDF refused by the server is reported beside the resume, which is marked, cleared and focused", async ({
  page,
}) => {
  await page.goto("/apply");
  await fillApplication(page);
  const resume = page.getByLabel(/Resume/);
  await resume.setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf") });
  await submitButton(page).click();

  await expect(resume).toHaveAttribute("aria-invalid", "true");
  await expect(resume).toHaveAccessibleDescription(/not a PDF|PDF/);
  await expect(resume).toBeFocused();
  await expect(resume).toBeInViewport();
  await expect(resume).toHaveValue("");
  await expect(page.getByLabel("First name")).toHaveValue("Jordan");

  await resume.setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: smallPdf() });
  await submitButton(page).click();
  await expect(page.getByRole("status")).toContainText(/APP-[0-9A-Z]{6}/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the application still sends, the license question included", async ({ page }) => {
    await page.goto("/apply");
    await submitButton(page).click();
    await expect(page.getByRole("alert")).toHaveText("Please fill in all required fields");
    await fillApplication(page);
    await yesNo(page, "Do you have a driver's license?", "Yes").check();
    await page.getByLabel("Driver's license number").fill("SC-7654321");
    await submitButton(page).click();
    await expect(page.getByText("Application submitted successfully!")).toBeVisible();
  });
});
