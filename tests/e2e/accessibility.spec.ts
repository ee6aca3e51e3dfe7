import { sitemapPaths } from "../../app/content/public-pages";
import { expect, expectNoAxeViolations, test } from "./fixtures";

// The sliders cross-fade for 700 ms; axe reading a caption mid-fade measures a frame, not the page (it failed one
// run in six on the home page). With reduced motion they hold still on their first slide.
test.use({ reducedMotion: "reduce" });

for (const path of [...sitemapPaths, "/no-such-page"]) {
  test(`${path} has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
  });
}

test("the open mobile menu has no axe violations", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("dialog", { name: "Main menu" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("every screen of the quiz has no axe violations", async ({ page }) => {
  await page.goto("/quiz");
  await expect(page.getByRole("button", { name: "Start Quiz" })).toBeEnabled();
  await expectNoAxeViolations(page, "start");
  await page.getByRole("button", { name: "Start Quiz" }).click();
  for (let step = 1; step <= 5; step++) {
    await page.getByRole("group").getByRole("radio").first().check();
    if (step === 1) await expectNoAxeViolations(page, "question");
    await page.getByRole("button", { name: step === 5 ? "Finish Quiz" : "Next" }).click();
  }
  await expect(page.getByRole("heading", { name: "Quiz complete" })).toBeVisible();
  await expectNoAxeViolations(page, "end");
});

test("every screen of the assessment has no axe violations", async ({ page }) => {
  // Nineteen axe runs: each takes seconds on a busy machine.
  test.setTimeout(90_000);
  await page.goto("/assessment");
  await expect(page.getByRole("button", { name: "Start Assessment" })).toBeVisible();
  await expectNoAxeViolations(page, "intro");
  await page.getByRole("button", { name: "Start Assessment" }).click();
  await expectNoAxeViolations(page, "text question");
  const contact = ["Abby Carter", "abby@example.com", "(803) 555-0100"];
  for (const value of contact) {
    await page.getByRole("textbox").fill(value);
    await page.getByRole("button", { name: "OK" }).click();
  }
  await page.getByRole("group").getByRole("radio").first().check();
  await expectNoAxeViolations(page, "multiple-choice question");
  for (let step = 4; step < 18; step++) {
    await page.getByRole("group").getByRole("radio").first().check();
    await page.getByRole("button", { name: "OK" }).click();
  }
  await page.getByRole("group").getByRole("radio").first().check();
  await page.getByRole("button", { name: "Submit Assessment" }).click();
  await expect(page.getByRole("heading", { name: "Assessment complete" })).toBeVisible();
  await expectNoAxeViolations(page, "results");

  await page.goto("/assessment?all");
  await expectNoAxeViolations(page, "all-questions form");
});
