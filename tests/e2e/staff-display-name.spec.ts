import { expect, test } from "./fixtures";
import { addStaffAccount, signIn } from "./staff-users";

test("an account made with npm run user -- create --display-name shows and signs the staff forms by that name", async ({
  page,
}) => {
  const account = addStaffAccount("staff", "displayname", process.env.E2E_DATA_DIR, "Robin Smith");
  await signIn(page, account);
  await expect(page.getByRole("banner").getByText("Signed in as Robin Smith")).toBeVisible();
  await expect(page.getByRole("banner")).not.toContainText(account.username);

  await page.goto("/admin/quick-links/estimate-request");
  await expect(page.getByLabel("Submitted By")).toHaveValue("Robin Smith");
  await page.goto("/admin/quick-links/estimate-checklist");
  await expect(page.getByLabel("Your Name")).toHaveValue("Robin Smith");
});
