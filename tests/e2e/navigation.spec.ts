import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const pages = [
  { name: "Home", path: "/", heading: "Welcome to Example Electric Co." },
  { name: "About Us", path: "/learnmore", heading: "About us" },
  { name: "Professional Lighting", path: "/lighting", heading: "Professional Lighting" },
  { name: "Healthcare", path: "/healthcare", heading: "Healthcare" },
  { name: "Education", path: "/education", heading: "Education" },
  { name: "Commercial Electric", path: "/commercial", heading: "Commercial Electric" },
];

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 1024;

async function openMenuIfPhone(page: Page) {
  if (isPhone(page)) await page.getByRole("button", { name: "Menu", exact: true }).click();
}

function mainMenu(page: Page) {
  return isPhone(page)
    ? page.getByRole("dialog", { name: "Main menu" })
    : page.getByRole("navigation", { name: "Main" });
}

async function scrollToBottom(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
}

test("every main menu link opens its page at the top", async ({ page }) => {
  await page.goto("/commercial");
  for (const target of pages) {
    await scrollToBottom(page);
    await openMenuIfPhone(page);
    await mainMenu(page).getByRole("link", { name: target.name, exact: true }).click();
    await expect(page).toHaveURL(target.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.heading);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await openMenuIfPhone(page);
    await expect(mainMenu(page).getByRole("link", { name: target.name, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    if (isPhone(page)) await page.keyboard.press("Escape");
  }
});

test("the logo leads home and the contact bar's Contact Us leads to the contact section", async ({ page }) => {
  await page.goto("/education");
  await expect(page.getByText("We proudly serve the Tri County and surrounding areas")).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/learnmore#form");
  await expect(page.locator("#form")).toBeInViewport();
  await page.getByRole("banner").getByRole("link", { name: "Example Electric Co." }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Example Electric Co.");
});

test("the footer links reach about, the services section and the contact section", async ({ page }) => {
  await page.goto("/lighting");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "About", exact: true }).click();
  await expect(page).toHaveURL("/learnmore");
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await footer.getByRole("link", { name: "Services", exact: true }).click();
  await expect(page).toHaveURL("/#services");
  await expect(page.getByRole("heading", { name: "Our services" })).toBeInViewport();

  await footer.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/learnmore#form");
  await expect(page.getByRole("heading", { name: "Request a free estimate" })).toBeInViewport();

  await footer.locator("div").first().getByRole("link", { name: "Contact Us" }).click();
  await expect(page.locator("#form")).toBeInViewport();
});

test("each service tile opens its service page, and the Learn More buttons lead to about us", async ({ page }) => {
  for (const tile of pages.slice(2)) {
    await page.goto("/#services");
    await page.locator("#services").getByRole("link", { name: tile.name }).click();
    await expect(page).toHaveURL(tile.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(tile.heading);
    await expect(page.locator("main img")).not.toHaveCount(0);
    await page.getByRole("link", { name: "Learn More About Us", exact: true }).click();
    await expect(page).toHaveURL("/learnmore");
  }
  await page.goto("/");
  await page.getByRole("link", { name: "Learn more about us", exact: true }).click();
  await expect(page).toHaveURL("/learnmore");
});

test("Contact Us on the about page glides to the contact section", async ({ page }) => {
  await page.goto("/learnmore");
  await page.getByRole("main").getByRole("link", { name: "Contact Us" }).click();
  await expect(page).toHaveURL("/learnmore#form");
  await expect(page.locator("#form")).toBeInViewport();
  await expect(page.locator("#form")).toBeFocused();
});

test("direct visits to /learnmore#form and /#services land on their anchors", async ({ page }) => {
  await page.goto("/learnmore#form");
  await expect(page.locator("#form")).toBeInViewport();
  await page.goto("/learnmore/#form");
  await expect(page).toHaveURL("/learnmore#form");
  await expect(page.locator("#form")).toBeInViewport();
  await page.goto("/#services");
  await expect(page.locator("#services")).toBeInViewport();
});

test("the about page shows the values, the claims, the mailing address and the map", async ({ page }) => {
  await page.goto("/learnmore");
  for (const pillar of ["Quality", "Experience", "Reliability", "Integrity"]) {
    await expect(page.getByRole("heading", { name: pillar, level: 3 })).toBeVisible();
  }
  for (const claim of [
    "Founded in 2022",
    "Close to four decades of combined team experience",
    "Serving the Carolinas",
  ]) {
    await expect(page.getByText(claim, { exact: true })).toBeVisible();
  }
  await expect(page.getByText("Currently taking commercial projects only", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: /Signature of Jordan Example/ })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("PO Box 555");
  const map = page.locator("iframe");
  await expect(map).toHaveAttribute("loading", "lazy");
  await expect(map).toHaveAttribute("title", /Map of the Example Electric Co\. office/);
  const size = await map.evaluate((frame) => {
    const parent = frame.parentElement as HTMLElement;
    const style = getComputedStyle(parent);
    const contentWidth =
      parent.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    const box = frame.getBoundingClientRect();
    return { height: box.height, widthShare: Math.round((box.width / contentWidth) * 100) };
  });
  expect(size).toEqual({ height: 450, widthShare: 90 });
});
