import { expect, test } from "./fixtures";
import { fillEstimate, sendButton } from "./public-forms";

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
