import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const heroSlide = (page: Page) =>
  page.getByRole("region", { name: "Welcome banner" }).getByRole("group", { name: /of 5$/ });
const pairSlide = (page: Page) => page.getByRole("group", { name: /^\d of 2:/ });

/** The banner starts rotating once all five backgrounds have loaded (or failed). */
async function openHomeWithAllHeroImagesSettled(page: Page) {
  await page.goto("/");
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('[aria-label="Welcome banner"] img')).every(
      (img) => img.complete,
    ),
  );
  await expect(page.getByRole("button", { name: "Pause banner slideshow" })).toBeVisible();
}

/** A fake clock that only moves when the test moves it. */
async function stopTheClock(page: Page) {
  const start = new Date("2026-06-01T09:00:00Z");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1_000));
}

test.describe("with motion allowed", () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await stopTheClock(page);
  });

  test("the welcome banner shows each of its five backgrounds for 3 s, then wraps around", async ({ page }) => {
    await openHomeWithAllHeroImagesSettled(page);
    await expect(heroSlide(page)).toHaveAccessibleName("1 of 5");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Example Electric Co.");
    await expect(page.getByText("Safety, quality, experience, reliability, and integrity.")).toBeVisible();
    await page.clock.runFor(2_900);
    await expect(heroSlide(page)).toHaveAccessibleName("1 of 5");
    for (const expected of ["2 of 5", "3 of 5", "4 of 5", "5 of 5", "1 of 5"]) {
      await page.clock.runFor(3_000);
      await expect(heroSlide(page)).toHaveAccessibleName(expected);
    }
  });

  test("the banner's pause control stops and restarts the rotation", async ({ page }) => {
    await openHomeWithAllHeroImagesSettled(page);
    await page.clock.runFor(3_000);
    await expect(heroSlide(page)).toHaveAccessibleName("2 of 5");
    await page.getByRole("button", { name: "Pause banner slideshow" }).click();
    await page.clock.runFor(9_000);
    await expect(heroSlide(page)).toHaveAccessibleName("2 of 5");
    await page.getByRole("button", { name: "Play banner slideshow" }).click();
    await page.clock.runFor(3_000);
    await expect(heroSlide(page)).toHaveAccessibleName("3 of 5");
  });

  test("the before/after slider alternates its two pairs every 3 s and can be paused", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Pause before and after slideshow" })).toBeVisible();
    await expect(pairSlide(page)).toHaveAccessibleName("1 of 2: Panel replacement");
    await expect(pairSlide(page).getByRole("img", { name: /^Before:/ })).toBeVisible();
    await expect(pairSlide(page).getByRole("img", { name: /^After:/ })).toBeVisible();
    await page.clock.runFor(3_000);
    await expect(pairSlide(page)).toHaveAccessibleName("2 of 2: LED lighting retrofit");
    await page.clock.runFor(3_000);
    await expect(pairSlide(page)).toHaveAccessibleName("1 of 2: Panel replacement");
    await page.getByRole("button", { name: "Pause before and after slideshow" }).click();
    await page.clock.runFor(9_000);
    await expect(pairSlide(page)).toHaveAccessibleName("1 of 2: Panel replacement");
  });
});

test("both sliders stand still for people who ask for reduced motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await stopTheClock(page);
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Play banner slideshow" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Play before and after slideshow" })).toBeVisible();
  await page.clock.runFor(15_000);
  await expect(heroSlide(page)).toHaveAccessibleName("1 of 5");
  await expect(pairSlide(page)).toHaveAccessibleName("1 of 2: Panel replacement");
});

test("the home page shows the band, the blurb, four client logos and a testimonial", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Your professional electrical contractor" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "We've got you covered" })).toBeVisible();
  for (const point of ["On-time service", "Panel upgrades", "Hazard inspections"]) {
    await expect(page.getByRole("main").getByText(point, { exact: true })).toBeVisible();
  }
  const logos = page.getByRole("region", { name: "Trusted by schools and colleges" }).getByRole("listitem");
  await expect(logos).toHaveCount(4);
  await expect(page.getByRole("figure").filter({ hasText: "Dana Placeholder" })).toBeVisible();
});
