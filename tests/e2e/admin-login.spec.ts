import { Secret, TOTP } from "otpauth";
import { startAppServer } from "../support/app-server";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addStaffAccount, followStaffNavigation, signIn, signInThroughForm } from "./staff-users";

test("the first start's setup link creates the first admin, who lands on the dashboard", async ({ page }) => {
  const app = await startAppServer();
  try {
    const line = app.output.find((entry) => entry.includes("No staff account exists yet")) ?? "";
    const setupUrl = new URL(/"setupUrl":"([^"]+)"/.exec(line)?.[1] ?? "");
    await page.goto(`${app.url}${setupUrl.pathname}${setupUrl.search}`);
    await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
    await page.getByLabel("Username").fill("owner");
    await page.getByLabel("Password", { exact: true }).fill("the owner's long password");
    await page.getByLabel("Repeat the password").fill("the owner's long password");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page).toHaveURL(`${app.url}/admin/quick-links`);
    await expect(page.getByText("Signed in as owner")).toBeVisible();
  } finally {
    await app.stop();
  }
});

test("signing in shows Logging in..., a wrong password gets the message, and logging out ends the session", async ({
  page,
}) => {
  const account = addStaffAccount("staff", "login");
  await page.goto("/admin");
  await signInThroughForm(page, account.username, "not my password at all");
  await expect(page.getByRole("alert")).toHaveText("Invalid username or password");
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Username")).toHaveValue(account.username);

  // Hold the sign-in request until the busy label has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/admin.data**", async (route) => {
    await held;
    await route.continue();
  });
  await signInThroughForm(page, account.username, account.password);
  await expect(page.getByRole("button", { name: "Logging in..." })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/admin\/quick-links$/);
  await expect(page.getByRole("heading", { name: "Quick Links" })).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/quick-links");
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Fquick-links$/);
});

test("a signed-out visit goes to the sign-in page and back to the page asked for", async ({ page }) => {
  const admin = addStaffAccount("admin", "return");
  await page.goto("/admin/staff");
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Fstaff$/);
  await signInThroughForm(page, admin.username, admin.password);
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(page.getByRole("heading", { name: "Staff accounts" })).toBeVisible();
});

test("a user enrols an authenticator app and then signs in with its code", async ({ page }) => {
  const account = addStaffAccount("staff", "totp");
  await signIn(page, account);
  await followStaffNavigation(page, "Your settings");
  await page.getByRole("link", { name: "Two-step verification" }).click();
  await expect(page.getByRole("img", { name: /QR code to add/ })).toBeVisible();
  const secret = (await page.locator("code").textContent()) ?? "";
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.getByLabel("Code from your app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your second factor is on" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/ })).toHaveCount(10);

  await page.getByRole("button", { name: "Log out" }).click();
  await signInThroughForm(page, account.username, account.password);
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not valid");
  // The code of the next time step: the one used to enrol cannot be used again.
  await page.getByLabel("Authentication code").fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/quick-links$/);
});

test("a card's copy icon copies the full link and says Copied! for a moment", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, addStaffAccount("staff", "copy"));
  await expect(page.getByRole("heading", { name: "Team Management" })).toBeVisible();
  await page.getByRole("button", { name: "Copy link to Electrical Assessment" }).click();
  const status = page.getByRole("status").filter({ hasText: "Copied!" });
  await expect(status).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/assessment`);
  await expect(status).toBeHidden();
  await expect(page.getByRole("link", { name: "Visit Link: Electrical Assessment" })).toHaveAttribute(
    "href",
    "/assessment",
  );
});

test("an admin adds a user, resets their password and deactivates them", async ({ page, browser }) => {
  // Five sign-ins, each checking a password hash: on a busy two-core machine CI ran past the 30 s default.
  test.setTimeout(60_000);
  await signIn(page, addStaffAccount("admin", "manager"));
  await followStaffNavigation(page, "Staff accounts");
  const newName = `field-tech-${Date.now()}`;
  const addForm = page.getByRole("region", { name: "Add a user" });
  await addForm.getByLabel("Username").fill(newName);
  await addForm.getByLabel("Password", { exact: true }).fill("first password for tech");
  await addForm.getByLabel("Repeat the password").fill("first password for tech");
  await addForm.getByRole("button", { name: "Add user" }).click();
  await expect(addForm.getByRole("status")).toHaveText(`Added ${newName}.`);
  const row = page.getByRole("row").filter({ hasText: newName });
  await expect(row).toContainText("Staff");
  await expect(row).toContainText("Never");

  const other = await browser.newPage();
  await signIn(other, { username: newName, password: "first password for tech" });

  await row.getByRole("link", { name: newName }).click();
  await expect(page.getByRole("heading", { name: `Staff account ${newName}` })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("second password for tech");
  await page.getByLabel("Repeat the new password").fill("second password for tech");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("status")).toContainText("was reset and all of their sessions were signed out");

  // The reset signed the other browser out.
  await other.goto("/admin/quick-links");
  await expect(other).toHaveURL(/\/admin\?redirectTo=/);
  await signIn(other, { username: newName, password: "second password for tech" });

  await page.getByRole("button", { name: "Deactivate account" }).click();
  await expect(page.getByRole("status")).toContainText("was deactivated");
  await other.goto("/admin/quick-links");
  await expect(other).toHaveURL(/\/admin\?redirectTo=/);
  await signInThroughForm(other, newName, "second password for tech");
  await expect(other.getByRole("alert")).toHaveText("Invalid username or password");
  await other.close();

  await page.getByRole("link", { name: "Back to all staff accounts" }).click();
  await expect(page.getByRole("row").filter({ hasText: newName })).toContainText("Deactivated");
});

test("the sign-in page, the dashboard and the staff page have no axe violations", async ({ page }) => {
  // Three axe runs and a real password hash: seconds each on a busy machine.
  test.setTimeout(60_000);
  await page.goto("/admin");
  await expectNoAxeViolations(page);
  await signIn(page, addStaffAccount("admin", "axe"));
  await expectNoAxeViolations(page);
  await page.goto("/admin/staff");
  await expectNoAxeViolations(page);
  await page.goto("/admin/account/two-factor");
  await expectNoAxeViolations(page);
});
