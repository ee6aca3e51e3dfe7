import type { Page } from "@playwright/test";

/** Filling in the public forms as a visitor does, for the specs of the forms and of the staff inbox. */

export async function fillEstimate(page: Page, projectType: "Commercial" | "Residential") {
  const form = page.locator("#form");
  await form.getByLabel("First name").fill("Avery");
  await form.getByLabel("Last name").fill("Placeholder");
  await form.getByLabel("Email").fill("avery@example.com");
  await form.getByLabel("Phone").fill("(803) 555-0199");
  await form.getByLabel("City").fill("Sumter");
  await form.getByRole("radio", { name: projectType }).check();
  await form.getByLabel("Preferred form of contact").fill("Phone call");
  await form.getByLabel("Best time to reach you").fill("Morning");
  await form.getByLabel("Comments").fill("Panel upgrade for a two-story office.");
}

export const sendButton = (page: Page) => page.getByRole("button", { name: "Request a free estimate" });

export const submitButton = (page: Page) => page.getByRole("button", { name: "Submit Application" });
export const yesNo = (page: Page, question: string, answer: "Yes" | "No") =>
  page.getByRole("group", { name: question }).getByRole("radio", { name: answer });

export async function fillApplication(page: Page) {
  await page.getByLabel("First name").fill("Jordan");
  await page.getByLabel("Last name").fill("Placeholder");
  await page.getByLabel("Email", { exact: true }).fill("jordan@example.com");
  await page.getByLabel("Phone").fill("(803) 555-0188");
  await page.getByLabel("Address").fill("12 Example Road, Sumter, SC 29150");
  await yesNo(page, "Do you have reliable transportation?", "Yes").check();
  await page.getByLabel("Desired role").selectOption("Electrician");
  await page.getByLabel("Desired hourly rate").fill("$28 an hour");
  await page.getByLabel("Highest education level").selectOption("Trade School");
  await page.getByLabel("Years of experience").fill("0");
  await page.getByLabel("Desired start date").fill("2030-03-02");
  await yesNo(page, "Have you served in the military?", "No").check();
  await page.getByLabel("Certifications").fill("OSHA 10");
  await page.getByLabel("Vocational training").fill("None");
  await yesNo(page, "Are you willing to travel?", "Yes").check();
  await yesNo(page, "Are you willing to work overtime?", "Yes").check();
  await yesNo(page, "Are you willing to work nights and weekends?", "No").check();
  await yesNo(page, "Do you have a criminal background?", "No").check();
}
