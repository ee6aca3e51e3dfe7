import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addStaffAccount, signIn, signInThroughForm } from "./staff-users";

test("an admin sees a sign-in lock at /admin/staff and lifts it, after which the locked user signs in", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two accounts made through the user CLI, five posts and two sign-ins: more than the usual 30 s on a busy machine.
  test.slow();
  const locked = addStaffAccount("staff", "locked");
  const admin = addStaffAccount("admin", "unlocker");

  // Five wrong passwords for one account from this machine lock it from here.
  const guesser = await browser.newContext();
  for (let attempt = 0; attempt < 5; attempt++) {
    await guesser.request.post("/admin", {
      form: { username: locked.username, password: "a wrong guess, again" },
      headers: { origin: baseURL ?? "" },
      maxRedirects: 0,
    });
  }
  await guesser.close();

  await signIn(page, admin);
  await page.goto("/admin/staff");
  const lockRow = page
    .getByRole("row")
    .filter({ hasText: locked.username })
    .filter({ has: page.getByRole("button", { name: /^Unlock/ }) });
  await expect(lockRow).toContainText("127.0.0.1");
  await expectNoAxeViolations(page, "staff list with a sign-in lock");

  await lockRow.getByRole("button", { name: `Unlock ${locked.username} from 127.0.0.1` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The lock was lifted" })).toBeVisible();
  await expect(lockRow).toHaveCount(0);

  const user = await browser.newPage({ baseURL });
  await user.goto("/admin");
  await signInThroughForm(user, locked.username, locked.password);
  await expect(user).toHaveURL(/\/admin\/quick-links$/);
  await user.close();
});
