import { expect, expectNoAxeViolations, test } from "./fixtures";

for (const path of ["/", "/learnmore", "/lighting", "/healthcare", "/education", "/commercial", "/no-such-page"]) {
  test(`${path} has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
  });
}

test("the open mobile menu has no axe violations", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("dialog", { name: "Main menu" })).toBeVisible();
  await expectNoAxeViolations(page);
});
