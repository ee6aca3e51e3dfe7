import type { Locator, Page } from "@playwright/test";
import { withAppDatabase } from "../support/app-database";
import { estimatePayload, insertInboxSubmission } from "../support/inbox-fixture";
import { expect, test } from "./fixtures";

const randomLetters = () =>
  Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/**
 * Whether the element comes to lie wholly within the screen: the browser's scroll to `#results` can come after the
 * heading is already on the page (CI, once, without JavaScript).
 */
async function expectOnScreen(page: Page, locator: Locator, what: string) {
  const viewport = page.viewportSize();
  await expect
    .poll(
      async () => {
        const box = await locator.boundingBox();
        return Boolean(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height);
      },
      { message: what },
    )
    .toBe(true);
}

/** 53 estimate requests from one family: a page of 50 and a page of 3 when searched for by the family's name. */
async function storeFamilyOfLeads(surname: string) {
  await withAppDatabase(process.env.E2E_DATA_DIR ?? "", async (db) => {
    for (let index = 0; index < 53; index += 1) {
      const digits = String(1000 + index);
      await insertInboxSubmission(db, {
        createdAt: new Date(Date.now() - index * 60_000),
        payload: estimatePayload({
          firstName: `Lead${index}`,
          lastName: surname,
          email: `lead${index}.${surname}@example.com`,
          phone: `(803) 555-${digits}`,
          city: "Sumter",
        }),
      });
    }
  });
}

test("a search lands on its count and first lead, whose card calls in one tap; back from a lead keeps the search and page", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(60_000);
  const surname = `Reyes${randomLetters()}`;
  await storeFamilyOfLeads(surname);
  await signInAsStaff("staff", "phoneinbox");
  await page.goto("/admin/inbox");

  await page.getByLabel("Search").fill(surname);
  await page.getByRole("button", { name: "Apply filters" }).click();
  const count = page.getByRole("heading", { name: `53 leads match “${surname}”` });
  await expect(count).toBeVisible();
  const results = page.getByRole("region", { name: `53 leads match “${surname}”` });
  const firstCard = results.getByRole("listitem").filter({ hasText: `Lead0 ${surname}` });
  const call = firstCard.getByRole("link", { name: `Call Lead0 ${surname} at (803) 555-1000` });
  await expect(call).toHaveAttribute("href", "tel:+18035551000");
  await expect(firstCard.getByRole("link", { name: /^Text / })).toHaveAttribute("href", "sms:+18035551000");
  await expect(firstCard.getByRole("link", { name: /^Email / })).toHaveAttribute(
    "href",
    `mailto:lead0.${surname}@example.com`,
  );
  await expectOnScreen(page, count, "the count after a search");
  await expectOnScreen(page, call, "the first lead's Call after a search");
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("1–50 of 53");

  await page.getByRole("link", { name: "Older" }).click();
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("51–53 of 53");
  await expectOnScreen(page, count, "the count on the second page");

  // The whole card opens the lead: a tap near its right edge, away from the name and the contact links.
  const card = results.getByRole("listitem").filter({ hasText: `Lead51 ${surname}` });
  const cardBox = await card.boundingBox();
  await card.tap({ position: { x: (cardBox?.width ?? 0) - 12, y: (cardBox?.height ?? 0) / 2 } });
  await expect(page.getByRole("heading", { level: 1, name: `Lead51 ${surname}` })).toBeVisible();
  await page.getByRole("link", { name: "Back to the inbox" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/inbox\\?q=${surname}&page=2#results$`));
  await expect(page.getByLabel("Search")).toHaveValue(surname);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("51–53 of 53");
  await expectOnScreen(page, count, "the count, back from the lead");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a filter lands on its count too", async ({ page, signInAsStaff }) => {
    await signInAsStaff("staff", "phoneinboxnojs");
    await page.goto("/admin/inbox");
    await page.getByLabel("Search").fill(`nobody${randomLetters()}`);
    await page.getByText("More filters").click();
    await page.getByLabel("Delivery").selectOption({ label: "Failed" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/#results$/);
    const count = page.getByRole("heading", { name: "Nothing matches these filters." });
    await expect(count).toBeVisible();
    await expectOnScreen(page, count, "the count after a filter without JavaScript");
  });
});
