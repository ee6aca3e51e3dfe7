import { Secret, TOTP } from "otpauth";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addStaffAccount, signIn } from "./staff-users";

test("with two-step on, new recovery codes and turning it off each ask for the password", async ({ page }) => {
  test.slow();
  const account = addStaffAccount("staff", "twostep");
  await signIn(page, account);
  await page.goto("/admin/account/two-factor");
  const secret = (await page.locator("code").textContent()) ?? "";
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.getByLabel("Code from your app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your second factor is on" })).toBeVisible();
  const firstCodes = await page.getByRole("listitem").allTextContents();

  await page.reload();
  await expect(page.getByText("You have 10 unused recovery codes.")).toBeVisible();
  await expectNoAxeViolations(page, "two-step page, enrolled");

  const newCodesForm = page
    .locator("form")
    .filter({ has: page.getByRole("button", { name: "Make new recovery codes" }) });
  await newCodesForm.getByLabel("Your password").fill("not my password at all");
  await newCodesForm.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(page.getByRole("alert")).toHaveText("That password did not match.");
  await newCodesForm.getByLabel("Your password").fill(account.password);
  await newCodesForm.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Here are your new recovery codes" })).toBeVisible();
  const newCodes = page.getByRole("listitem").filter({ hasText: /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/ });
  await expect(newCodes).toHaveCount(10);
  expect(await newCodes.allTextContents()).not.toContain(firstCodes.find((code) => code.includes("-")));

  const turnOffForm = page
    .locator("form")
    .filter({ has: page.getByRole("button", { name: "Turn off two-step verification" }) });
  // The code of the next time step: the one used to enrol cannot be used again.
  const nextCode = totp.generate({ timestamp: Date.now() + 30_000 });
  await turnOffForm.getByLabel("Current code").fill(nextCode);
  await turnOffForm.getByLabel("Your password").fill(account.password);
  await turnOffForm.getByRole("button", { name: "Turn off two-step verification" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your second factor is off." })).toBeVisible();
  await expect(page.getByRole("img", { name: /QR code to add/ })).toBeVisible();
});
