import { expect, test } from "./fixtures";

test.use({ javaScriptEnabled: false });

test("every public page is readable without JavaScript, and its links still work", async ({ page }) => {
  const pages = [
    { path: "/", heading: "Welcome to Example Electric Co." },
    { path: "/learnmore", heading: "About us" },
    { path: "/lighting", heading: "Professional Lighting" },
    { path: "/healthcare", heading: "Healthcare" },
    { path: "/education", heading: "Education" },
    { path: "/commercial", heading: "Commercial Electric" },
  ];
  for (const { path, heading } of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByRole("contentinfo")).toContainText("123 Example Street");
  }
  await page.goto("/");
  await page.locator("#services").getByRole("link", { name: "Healthcare" }).click();
  await expect(page).toHaveURL("/healthcare");
  await page.getByRole("banner").getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/learnmore#form");
  await expect(page.locator("#form")).toBeInViewport();
});
