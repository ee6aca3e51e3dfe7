import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

const USER_CLI = path.resolve("server/user-cli.ts");

let counter = 0;

/**
 * Adds a staff account to an app, the way an operator would: `npm run user -- create` (here its command
 * line, node with tsx), which finds the running app's embedded PostgreSQL in its data directory: by default the one the
 * tests run against, or that of an app a spec started itself.
 */
export function addStaffAccount(
  role: "admin" | "staff",
  label: string,
  dataDir = process.env.E2E_DATA_DIR,
  displayName?: string,
) {
  counter += 1;
  const username = `${label}-${role}-${process.pid}-${counter}`.toLowerCase();
  const password = `correct horse ${label} battery`;
  const nameOption = displayName === undefined ? [] : ["--display-name", displayName];
  execFileSync(process.execPath, ["--import", "tsx", USER_CLI, "create", username, "--role", role, ...nameOption], {
    input: `${password}\n`,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["pipe", "ignore", "inherit"],
  });
  return { username, password };
}

export async function signInThroughForm(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

export async function signIn(page: Page, account: { username: string; password: string }) {
  await page.goto("/admin");
  await signInThroughForm(page, account.username, account.password);
  await expect(page).toHaveURL(/\/admin\/quick-links$/);
}

/** Follows a link of the staff navigation, opening its menu first where the screen is narrow enough to have one. */
export async function followStaffNavigation(page: Page, name: string) {
  const navigation = page.getByRole("navigation", { name: "Staff" });
  const menu = navigation.getByRole("button", { name: "Menu" });
  const link = navigation.getByRole("link", { name, exact: true });
  // Asked only once the page shows its navigation: asked earlier, a menu not yet drawn reads as no menu.
  await expect(navigation).toBeVisible();
  await expect(menu.or(link)).toBeVisible();
  if (await menu.isVisible()) {
    // A tap while the page is still starting up can go unanswered; a person taps the menu again.
    await expect(async () => {
      if (!(await link.isVisible())) await menu.click();
      await expect(link).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  }
  await link.click();
}
