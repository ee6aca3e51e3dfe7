import { expect, test } from "./fixtures";
import { addStaffAccount, signIn } from "./staff-users";

test("a new calendar address is shown once, with a button that copies it", async ({ page, context }) => {
  test.slow();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, addStaffAccount("staff", "calendar"));
  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Make my calendar address" }).click();
  const address = page.getByText(/\/calendar\/[^/]+\.ics$/);
  await expect(address).toBeVisible();

  // The button's script loads when the address is made.
  await page.getByRole("button", { name: "Copy link to your calendar address" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await address.textContent());

  await page.reload();
  await expect(address).toBeHidden();
  await expect(page.getByText(/^You made your calendar address on /)).toBeVisible();
});
