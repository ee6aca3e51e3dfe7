import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const QUESTION_COUNT = 5;

/** Answers every question by clicking the option with the given letter, checking the focus moves each step. */
async function takeQuiz(page: Page, letters: string[]) {
  await page.getByRole("button", { name: "Start Quiz" }).click();
  for (const [index, letter] of letters.entries()) {
    await expect(page.getByRole("heading", { name: `Question ${index + 1}` })).toBeFocused();
    await expect(page.getByText(`${index + 1} of ${QUESTION_COUNT}`)).toBeVisible();
    const next = page.getByRole("button", { name: index === QUESTION_COUNT - 1 ? "Finish Quiz" : "Next" });
    await expect(next).toBeDisabled();
    await page.getByRole("group").getByRole("radio").nth("ABC".indexOf(letter)).check();
    await next.click();
  }
  await expect(page.getByRole("heading", { name: "Quiz complete" })).toBeFocused();
}

async function expectChosenLetters(page: Page, letters: string[]) {
  const items = page.getByRole("listitem").filter({ hasText: /^Question \d: [A-C]$/ });
  await expect(items).toHaveText(letters.map((letter, index) => `Question ${index + 1}: ${letter}`));
}

test("the quiz goes from start to the chosen letters, and again after Take Quiz Again", async ({ page }) => {
  await page.goto("/quiz");
  await expect(page.getByText("5 questions, about 5 minutes")).toBeVisible();
  await takeQuiz(page, ["C", "B", "C", "B", "B"]);
  await expectChosenLetters(page, ["C", "B", "C", "B", "B"]);
  await expect(page.getByRole("link", { name: "Continue to Application" })).toHaveAttribute("href", "/apply");

  await page.getByRole("button", { name: "Take Quiz Again" }).click();
  await expect(page.getByRole("heading", { name: "Before you start" })).toBeFocused();
  await takeQuiz(page, ["A", "A", "B", "C", "A"]);
  await expectChosenLetters(page, ["A", "A", "B", "C", "A"]);
});

test("Previous goes back to the last question with its answer kept", async ({ page }) => {
  await page.goto("/quiz");
  await page.getByRole("button", { name: "Start Quiz" }).click();
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  const firstGroup = page.getByRole("group", { name: /three 90-degree bends/ });
  await firstGroup.getByRole("radio", { name: /360 degrees/ }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("group", { name: /20-amp/ })).toBeVisible();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(firstGroup.getByRole("radio", { name: /360 degrees/ })).toBeChecked();
});
