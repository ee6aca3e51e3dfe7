import { expect, test } from "./fixtures";

// Runs in the phone project only (playwright.config.ts): the slide-in menu is the small-screen layout.
test.beforeEach(async ({ page }) => {
  await page.goto("/education");
});

test("opens from the hamburger and closes with its close button, with aria-expanded following its state", async ({
  page,
}) => {
  const toggle = page.getByRole("button", { name: "Menu", exact: true });
  const menu = page.getByRole("dialog", { name: "Main menu" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeHidden();
  await toggle.click();
  await expect(menu).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await menu.getByRole("button", { name: "Close menu" }).click();
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
});

test("closes on Escape and returns focus to the toggle", async ({ page }) => {
  const toggle = page.getByRole("button", { name: "Menu", exact: true });
  await toggle.click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Main menu" })).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
});

test("keeps focus inside while open, in both directions", async ({ page }) => {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  const menu = page.getByRole("dialog", { name: "Main menu" });
  const focusIsInside = () => menu.evaluate((dialog) => dialog.contains(document.activeElement));
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press("Tab");
    expect(await focusIsInside()).toBe(true);
  }
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusIsInside()).toBe(true);
  }
});

test("closes when a link is chosen, and its Contact Us button leads to the contact section", async ({ page }) => {
  const toggle = page.getByRole("button", { name: "Menu", exact: true });
  const menu = page.getByRole("dialog", { name: "Main menu" });
  await toggle.click();
  await menu.getByRole("link", { name: "Healthcare" }).click();
  await expect(page).toHaveURL("/healthcare");
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  await toggle.click();
  await menu.getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/learnmore#form");
  await expect(menu).toBeHidden();
  await expect(page.locator("#form")).toBeInViewport();
});

test("closes when the dimmed backdrop beside the panel is tapped", async ({ page }) => {
  const toggle = page.getByRole("button", { name: "Menu", exact: true });
  const menu = page.getByRole("dialog", { name: "Main menu" });
  await toggle.click();
  await expect(menu).toBeVisible();
  await page.mouse.click(10, 300);
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("opens from the hamburger, leads to a page, and closes on its close button and on the backdrop", async ({
    page,
  }) => {
    const toggle = page.getByRole("button", { name: "Menu", exact: true });
    const menu = page.getByRole("dialog", { name: "Main menu" });
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await menu.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();

    await toggle.click();
    await page.mouse.click(10, 300);
    await expect(menu).toBeHidden();

    await toggle.click();
    await menu.getByRole("link", { name: "Healthcare" }).click();
    await expect(page).toHaveURL("/healthcare");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Healthcare");
  });
});

test("works the same on the careers pages, which React runs", async ({ page }) => {
  await page.goto("/apply");
  const toggle = page.getByRole("button", { name: "Menu", exact: true });
  const menu = page.getByRole("dialog", { name: "Main menu" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(menu).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();
  await toggle.click();
  await menu.getByRole("link", { name: "Education" }).click();
  await expect(page).toHaveURL("/education");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Education");
});
