import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { followStaffNavigation } from "./staff-users";

/** The narrowest phone the staff area is laid out for. */
const NARROW_PHONE = { width: 360, height: 740 };

async function expectNoSidewaysScroll(page: Page, screen: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${screen} scrolls sideways`).toBeLessThanOrEqual(0);
}

test.beforeEach(async ({ page, isMobile }) => {
  if (isMobile) await page.setViewportSize(NARROW_PHONE);
});

test("the staff frame replaces the public header and footer, and its navigation fits the screen", async ({
  page,
  isMobile,
  signInAsStaff,
}) => {
  const user = await signInAsStaff("admin", "frame");
  await page.goto("/admin/quick-links");
  await expect(page.getByRole("heading", { name: "Quick Links", level: 1 })).toBeVisible();
  await expect(page.getByText("Ready to plan your next project?")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);

  const bar = page.getByRole("banner");
  await expect(bar.getByText(`Signed in as ${user.username}`)).toBeVisible();
  await expect(bar.getByRole("button", { name: "Log out" })).toBeVisible();
  // One bar on a phone, not the old three rows of wrapped links; on a laptop the bar and one row of links.
  expect((await bar.boundingBox())?.height).toBeLessThan(isMobile ? 80 : 120);
  await expectNoSidewaysScroll(page, "Quick Links");

  const navigation = page.getByRole("navigation", { name: "Staff" });
  const entries = ["Quick Links", "Inbox", "Staff accounts", "Your settings"];
  // A phone shows the navigation behind one Menu button; a laptop (1280 px) shows its links as one row.
  const menu = navigation.getByRole("button", { name: "Menu" });
  const folded = isMobile;
  if (folded) {
    await expect(menu).toBeVisible();
    await expect(navigation.getByRole("link", { name: "Inbox" })).toBeHidden();
    await menu.click();
  } else {
    await expect(menu).toBeHidden();
  }
  for (const name of entries) {
    const link = navigation.getByRole("link", { name, exact: true });
    await expect(link).toBeInViewport();
  }
  if (!folded) {
    const tops = await navigation
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size, "the staff links wrap onto more than one row").toBe(1);
  }
  await expectNoSidewaysScroll(page, "the open menu");

  await navigation.getByRole("link", { name: "Inbox", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  const inboxLink = navigation.getByRole("link", { name: "Inbox", exact: true, includeHidden: true });
  await expect(inboxLink).toHaveAttribute("aria-current", "page");
  // Following a link closes the menu.
  if (folded) await expect(inboxLink).toBeHidden();
  await expectNoSidewaysScroll(page, "the inbox");

  await followStaffNavigation(page, "Staff accounts");
  await expect(page.getByRole("heading", { name: "Staff accounts", level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page, "Staff accounts");

  await bar.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/inbox");
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Finbox$/);
});

test("a 404 or a 403 inside the staff area keeps the staff frame, and says nothing of the error's internals", async ({
  page,
  signInAsStaff,
}) => {
  const user = await signInAsStaff("staff", "errors");
  const notFound = [
    "/admin/inbox/999999999",
    // No such tool.
    "/admin/quick-links/no-such-tool",
  ];
  for (const path of notFound) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
    await expect(page.getByRole("navigation", { name: "Staff" })).toBeVisible();
    await expect(page.getByRole("banner").getByText(`Signed in as ${user.username}`)).toBeVisible();
    await expect(page.getByText("Ready to plan your next project?")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(/\.(ts|tsx|js):\d+|Error:/);
  }
  await expectNoAxeViolations(page, "the staff not-found page");

  const forbidden = await page.goto("/admin/staff");
  expect(forbidden?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You don't have access to this page");
  await expect(page.getByRole("banner").getByRole("button", { name: "Log out" })).toBeVisible();

  // From the error screen the navigation still leads on.
  await followStaffNavigation(page, "Inbox");
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
});

test("the Quick Links dashboard uses the width for its cards and has no axe violations", async ({
  page,
  isMobile,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "dashboard");
  await page.goto("/admin/quick-links");
  await expectNoAxeViolations(page, "Quick Links");
  const team = await page.getByRole("region", { name: "Team Management" }).boundingBox();
  const projects = await page.getByRole("region", { name: "Project Management" }).boundingBox();
  if (!team || !projects) throw new Error("a Quick Links category is not shown");
  const viewportWidth = page.viewportSize()?.width ?? 0;
  if (isMobile) {
    // One column, each category as wide as the screen allows.
    expect(projects.y).toBeGreaterThan(team.y);
    expect(team.width).toBeGreaterThan(viewportWidth * 0.8);
  } else {
    // Side by side, together spanning most of the screen.
    expect(projects.y).toBe(team.y);
    expect(projects.x + projects.width - team.x).toBeGreaterThan(viewportWidth * 0.8);
  }
  if (isMobile) {
    await page.getByRole("navigation", { name: "Staff" }).getByRole("button", { name: "Menu" }).click();
    await expectNoAxeViolations(page, "Quick Links with the staff menu open");
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the staff menu still opens and leads to every screen", async ({ page, signInAsStaff }) => {
    await signInAsStaff("staff", "nojsmenu");
    await page.goto("/admin/quick-links");
    await followStaffNavigation(page, "Inbox");
    await expect(page).toHaveURL(/\/admin\/inbox$/);
    await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  });
});
