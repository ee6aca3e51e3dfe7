import type { Page } from "@playwright/test";
import { assessmentAnswers } from "../support/assessment-fixture";
import { expect, test } from "./fixtures";
import { cutSignal, restoreSignal } from "./signal";

const TOTAL = 18;
const CONTACT = { name: "Abby Carter", email: "abby@example.com", phone: "8035551234" };

/** Twelve of the fifteen scored questions right (80%), as letters for questions 4 to 18. */
function lettersFor80Percent(): string[] {
  return Object.values(assessmentAnswers(12)).slice(3);
}

const questionHeading = (page: Page, step: number) => page.getByRole("heading", { name: `Question ${step}` });
const okButton = (page: Page) => page.getByRole("button", { name: "OK" });

/** Presses Tab until the locator has the focus, as a keyboard user would. */
async function tabTo(page: Page, name: string) {
  const target = page.getByRole("button", { name });
  await expect(target).toBeVisible();
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${name}`);
}

/** The question on screen shows this answer (a letter) as chosen. */
async function expectChosen(page: Page, letter: string | undefined) {
  await expect(
    page
      .getByRole("group")
      .getByRole("radio")
      .nth("ABCD".indexOf(letter ?? "")),
  ).toBeChecked();
}

/** Answers the name, email and phone questions with the mouse. */
async function answerContactQuestions(page: Page) {
  await page.getByLabel("What is your full name?").fill(CONTACT.name);
  await okButton(page).click();
  await page.getByLabel("What is your email address?").fill(CONTACT.email);
  await okButton(page).click();
  await page.getByLabel("What is your phone number?").fill(CONTACT.phone);
  await okButton(page).click();
}

/** Answers everything with the mouse, up to the last question, without submitting. */
async function answerUpToLast(page: Page, letters: string[]) {
  await page.goto("/assessment");
  await page.getByRole("button", { name: "Start Assessment" }).click();
  await answerContactQuestions(page);
  for (const [offset, letter] of letters.entries()) {
    await expect(questionHeading(page, offset + 4)).toBeFocused();
    await page.getByRole("group").getByRole("radio").nth("ABCD".indexOf(letter)).check();
    if (offset < letters.length - 1) await okButton(page).click();
  }
}

test("the assessment can be taken by keyboard alone, and shows the score at the end", async ({ page }) => {
  await page.goto("/assessment");
  await expect(page.getByText("18 questions, about 10 minutes.")).toBeVisible();
  await tabTo(page, "Start Assessment");
  await page.keyboard.press("Enter");

  // Question 1: letters and the Left arrow type in the field; they neither pick an option nor go back.
  await expect(questionHeading(page, 1)).toBeFocused();
  await expect(page.getByText(`1 of ${TOTAL}`)).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Assessment progress" })).toHaveAttribute("value", "6");
  await expect(okButton(page)).toBeDisabled();
  await page.keyboard.press("Enter");
  await expect(questionHeading(page, 1)).toBeVisible();
  await page.keyboard.press("Tab");
  const name = page.getByLabel("What is your full name?");
  await expect(name).toBeFocused();
  await page.keyboard.type("Abby Carter");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type("b");
  await expect(name).toHaveValue("Abby Cartebr");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Delete");
  await page.keyboard.type("r");
  await expect(name).toHaveValue(CONTACT.name);
  await expect(questionHeading(page, 1)).toBeVisible();
  await page.keyboard.press("Enter");

  // Question 2: a wrong email is refused with the reason; then a good one continues.
  await expect(questionHeading(page, 2)).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.type("abby");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await page.keyboard.type("@example.com");
  await page.keyboard.press("Enter");

  // Question 3: digits type into the phone field instead of choosing options.
  await expect(questionHeading(page, 3)).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.type(CONTACT.phone);
  await expect(page.getByLabel("What is your phone number?")).toHaveValue(CONTACT.phone);
  await page.keyboard.press("Enter");

  // Questions 4 to 18: letters and digits choose, Enter continues, Left arrow goes back and keeps the answer.
  const letters = lettersFor80Percent();
  for (const [offset, letter] of letters.entries()) {
    const step = offset + 4;
    await expect(questionHeading(page, step)).toBeFocused();
    if (step === 4) {
      await expect(okButton(page)).toBeDisabled();
      await page.keyboard.press("Enter");
      await expect(questionHeading(page, 4)).toBeFocused();
    }
    // Letters on even steps, digits on odd ones.
    await page.keyboard.press(step % 2 === 0 ? letter.toLowerCase() : String("ABCD".indexOf(letter) + 1));
    await expect(page.getByRole("group").getByRole("radio").nth("ABCD".indexOf(letter))).toBeChecked();
    if (step === 5) {
      await page.keyboard.press("ArrowLeft");
      await expect(questionHeading(page, 4)).toBeFocused();
      await expect(
        page
          .getByRole("group")
          .getByRole("radio")
          .nth("ABCD".indexOf(letters[0] ?? "")),
      ).toBeChecked();
      await page.keyboard.press("Enter");
      await expect(questionHeading(page, 5)).toBeFocused();
      await expect(page.getByRole("group").getByRole("radio").nth("ABCD".indexOf(letter))).toBeChecked();
    }
    if (step === TOTAL) await expect(page.getByRole("button", { name: "Submit Assessment" })).toBeEnabled();
    await page.keyboard.press("Enter");
  }

  await expect(page.getByRole("heading", { name: "Assessment complete" })).toBeFocused();
  await expect(page.getByText("Excellent performance!")).toBeVisible();
  await expect(page.getByRole("definition").nth(0)).toHaveText("80%");
  await expect(page.getByRole("definition").nth(1)).toHaveText("12");
  await expect(page.getByRole("definition").nth(2)).toHaveText("15");
});

test("when the server cannot be reached, the answers stay and Retry sends them", async ({ page }) => {
  const letters = lettersFor80Percent();
  await answerUpToLast(page, letters);
  let aborted = 0;
  await page.route("**/assessment.data*", (route) => {
    if (route.request().method() === "POST" && aborted === 0) {
      aborted++;
      return route.abort("connectionrefused");
    }
    return route.continue();
  });
  await page.getByRole("button", { name: "Submit Assessment" }).click();
  await expect(page.getByRole("alert")).toContainText("We couldn't reach our server");
  await expectChosen(page, letters.at(-1));

  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: "Assessment complete" })).toBeVisible();
  await expect(page.getByText("Excellent performance!")).toBeVisible();
  expect(aborted).toBe(1);
});

test("after a server error the answers survive a reload and can be sent", async ({ page }) => {
  const letters = lettersFor80Percent();
  await answerUpToLast(page, letters);
  await page.route("**/assessment.data*", (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, body: "down" }) : route.continue(),
  );
  await page.getByRole("button", { name: "Submit Assessment" }).click();
  await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
  await expect(page.getByRole("alert")).toBeVisible();

  await page.unroute("**/assessment.data*");
  await page.reload();
  await expect(questionHeading(page, TOTAL)).toBeFocused();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(questionHeading(page, TOTAL - 1)).toBeFocused();
  await expectChosen(page, letters.at(-2));
  await okButton(page).click();
  await page.getByRole("button", { name: "Submit Assessment" }).click();
  await expect(page.getByText("Excellent performance!")).toBeVisible();

  // Once sent, the attempt is over: a reload starts afresh.
  await page.reload();
  await expect(page.getByRole("button", { name: "Start Assessment" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Start leads to one form with every question, which posts and shows the score", async ({ page }) => {
    await page.goto("/assessment");
    await page.getByRole("link", { name: "Start Assessment" }).click();
    await expect(page.getByRole("group")).toHaveCount(15);
    await page.getByLabel("What is your full name?").fill(CONTACT.name);
    await page.getByLabel("What is your email address?").fill(CONTACT.email);
    // The browser's own checks pass a two-digit phone; the server's do not.
    await page.getByLabel("What is your phone number?").fill("12");
    const letters = lettersFor80Percent();
    for (const [offset, letter] of letters.entries()) {
      await page.getByRole("group").nth(offset).getByRole("radio").nth("ABCD".indexOf(letter)).check();
    }
    await page.getByRole("button", { name: "Submit Assessment" }).click();
    await expect(page.getByRole("alert")).toContainText("question 3: Enter a phone number with its area code");
    await expect(page.getByLabel("What is your full name?")).toHaveValue(CONTACT.name);
    await expect(
      page
        .getByRole("group")
        .nth(14)
        .getByRole("radio")
        .nth("ABCD".indexOf(letters[14] ?? "")),
    ).toBeChecked();

    await page.getByLabel("What is your phone number?").fill(CONTACT.phone);
    await page.getByRole("button", { name: "Submit Assessment" }).click();
    await expect(page.getByText("Excellent performance!")).toBeVisible();
    await expect(page.getByText("80%")).toBeVisible();
  });
});

test("sent while offline, the answers stay with a lost-connection message, and online they are stored once with the reference shown", async ({
  page,
  context,
}) => {
  const letters = lettersFor80Percent();
  await answerUpToLast(page, letters);
  await cutSignal(context);
  await page.getByRole("button", { name: "Submit Assessment" }).click();
  await expect(page.getByRole("alert")).toContainText("The connection was lost");
  await expect(page.getByRole("alert")).toBeInViewport();
  await expectChosen(page, letters.at(-1));

  await restoreSignal(context);
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts++;
  });
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: "Assessment complete" })).toBeVisible();
  await expect(page.getByText(/Your reference number is ASM-[0-9A-Z]{6}/)).toBeVisible();
  expect(posts).toBe(1);
});

test("the keyboard hint shows on a choice question with a mouse, never on the name question or a touch screen", async ({
  page,
}, testInfo) => {
  await page.goto("/assessment");
  await page.getByRole("button", { name: "Start Assessment" }).click();
  const hint = page.getByText("Keys:");
  await expect(page.getByLabel("What is your full name?")).toBeVisible();
  await expect(hint).toBeHidden();
  await answerContactQuestions(page);
  await expect(questionHeading(page, 4)).toBeFocused();
  if (testInfo.project.use.hasTouch) await expect(hint).toBeHidden();
  else await expect(hint).toBeVisible();
});
