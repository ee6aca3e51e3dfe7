import { company } from "../../app/content/company";
import { expect, test } from "./fixtures";

test("the sticky header never covers what the browser scrolls to: its scroll padding is the header's height", async ({
  page,
}) => {
  await page.goto("/learnmore#form");
  const header = page.getByRole("banner");
  const headerHeight = await header.evaluate((element) => element.getBoundingClientRect().height);
  const scrollPadding = await page.evaluate(() =>
    Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
  );
  expect(scrollPadding).toBe(headerHeight);
  const formTop = await page.locator("#form").evaluate((element) => element.getBoundingClientRect().top);
  expect(formTop).toBeGreaterThanOrEqual(headerHeight);
});

test("the contact bar's phone number and the phone header's call button ring the office", async ({ page }) => {
  await page.goto("/");
  await expect(
    page.getByRole("contentinfo").getByRole("link", { name: `Call ${company.phone.display}`, exact: true }),
  ).toHaveAttribute("href", company.phone.href);
  const callButton = page.getByRole("banner").getByRole("link", { name: `Call ${company.phone.display}` });
  if ((page.viewportSize()?.width ?? 0) < 1024) {
    await expect(callButton).toHaveAttribute("href", company.phone.href);
  } else {
    await expect(callButton).toBeHidden();
  }
});
