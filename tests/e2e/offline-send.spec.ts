import { smallPdf } from "../support/application-fixture";
import { expect, test } from "./fixtures";
import { fillApplication, submitButton } from "./public-forms";
import { cutSignal, restoreSignal } from "./signal";

test("an application sent while offline keeps every answer and the resume, and is stored once when sent again online", async ({
  page,
  context,
}) => {
  await page.goto("/apply");
  await fillApplication(page);
  const resume = page.getByLabel(/Resume/);
  await resume.setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: smallPdf() });

  await cutSignal(context);
  await submitButton(page).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("connection");
  await expect(alert).toBeInViewport();
  await expect(page.getByLabel("First name")).toHaveValue("Jordan");
  await expect(page.getByLabel("Address")).toHaveValue("12 Example Road, Sumter, SC 29150");
  expect(await resume.evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe("resume.pdf");

  await restoreSignal(context);
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts++;
  });
  await submitButton(page).click();
  await expect(page.getByRole("status")).toContainText(/APP-[0-9A-Z]{6}/);
  expect(posts).toBe(1);
});
