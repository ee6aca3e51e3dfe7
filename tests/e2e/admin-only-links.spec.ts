import { expect, test } from "./fixtures";

/** The peer review is readable by admins only: staff users are shown no way to it, admins are. */

test("admins reach the peer review report from its Quick Links card under Team Management", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("admin", "reportcard");
  await page.goto("/admin/quick-links");
  const team = page.getByRole("region", { name: "Team Management" });
  const card = team.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Peer Review Report" }) });
  await card.getByRole("link", { name: "Visit Link: Peer Review Report" }).click();
  await expect(page).toHaveURL(/\/admin\/peer-review-report$/);
  await expect(page.getByRole("heading", { name: "Peer review report", level: 1 })).toBeVisible();
});

test("staff users see no peer review report card", async ({ page, signInAsStaff }) => {
  await signInAsStaff("staff", "reportcard");
  await page.goto("/admin/quick-links");
  await expect(page.getByRole("heading", { name: "Peer Review", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Peer Review Report" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Peer Review Report/ })).toHaveCount(0);
});

for (const role of ["staff", "admin"] as const) {
  test(`the inbox's Type filter ${role === "admin" ? "offers" : "leaves out"} Peer review for ${role === "admin" ? "an admin" : "a staff"} user`, async ({
    page,
    signInAsStaff,
  }) => {
    await signInAsStaff(role, "typefilter");
    await page.goto("/admin/inbox");
    await page.getByText("More filters").click();
    const type = page.getByLabel("Type");
    await expect(type.getByRole("option", { name: "Estimate request", exact: true })).toHaveCount(1);
    await expect(type.getByRole("option", { name: "Peer review", exact: true })).toHaveCount(role === "admin" ? 1 : 0);
  });
}
