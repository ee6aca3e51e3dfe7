import { expect, expectNoAxeViolations, test } from "./fixtures";
import { fillEstimate, sendButton } from "./public-forms";

test("the footer shows the license, insurance, hours and the after-hours number, and links the privacy notice", async ({
  page,
}) => {
  await page.goto("/healthcare");
  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText("Licensed and insured");
  await expect(footer).toContainText("License No. M-000000");
  await expect(footer).toContainText("Monday to Friday, 7:00 AM to 5:00 PM");
  await expect(footer.getByRole("link", { name: "(803) 555-0143" })).toHaveAttribute("href", "tel:+18035550143");
  await footer.getByRole("link", { name: "Privacy & Terms" }).click();
  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy & Terms");
  await expect(page.getByRole("heading", { name: "How long we keep it" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(/its resume is deleted \d+ days later/);
  await expectNoAxeViolations(page, "privacy notice");
});

test("the about page shows the trust details, and the map has a link to a maps site that works without the embed", async ({
  page,
}) => {
  await page.goto("/learnmore");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Licensed, insured, and easy to reach" })).toBeVisible();
  await expect(main).toContainText("Saturday, 8:00 AM to 12:00 PM");
  const mapLink = main.getByRole("link", { name: "Open 123 Example Street, Sumter, SC 29150 in Google Maps" });
  await expect(mapLink).toBeVisible();
  await expect(mapLink).toHaveAttribute("href", /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
  await expect(page.locator("iframe")).toHaveAttribute("loading", "lazy");
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("choosing Residential shows the commercial-only note before sending, and Commercial hides it", async ({
      page,
    }) => {
      await page.goto("/lighting#form");
      const form = page.locator("#form");
      const note = form.getByText("we currently take commercial projects only");
      await expect(note).toBeHidden();
      await form.getByRole("radio", { name: "Residential" }).check();
      await expect(note).toBeVisible();
      await form.getByRole("radio", { name: "Commercial" }).check();
      await expect(note).toBeHidden();
      await expect(form.getByRole("link", { name: "privacy notice" })).toHaveAttribute("href", "/privacy");
    });
  });
}

test("the estimate's confirmation says what happens next and gives the office phone", async ({ page }) => {
  await page.goto("/commercial#form");
  await fillEstimate(page, "Commercial");
  await sendButton(page).click();
  const dialog = page.getByRole("dialog", { name: "success!" });
  await expect(dialog).toContainText("What happens next: our office calls you within one business day");
  await expect(dialog).toContainText("For anything urgent, call us at (803) 555-0142.");
});

test("/apply says what the skills quiz and assessment are and links them, with a consent line", async ({ page }) => {
  await page.goto("/apply");
  const tests = page.getByRole("region", { name: "Show us your skills" });
  await expect(tests).toContainText("five-question practice quiz");
  await expect(tests).toContainText("18-question electrical skills assessment");
  await expect(page.getByRole("link", { name: "privacy notice" })).toHaveAttribute("href", "/privacy");
  await tests.getByRole("link", { name: "Skills Assessment" }).click();
  await expect(page).toHaveURL("/assessment");
  await page.getByRole("contentinfo").getByRole("link", { name: "Skills Quiz" }).click();
  await expect(page).toHaveURL("/quiz");
});
