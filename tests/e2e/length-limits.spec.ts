import type { Locator } from "@playwright/test";
import { applicationSchema } from "../../app/features/careers/schema";
import { estimateSchema } from "../../app/features/estimate/schema";
import { checklistSchema } from "../../app/features/estimate-checklist/schema";
import { peerReviewSchema } from "../../app/features/peer-review/schema";
import { estimateRequestSchema } from "../../app/features/scheduling/estimate-request/schema";
import { jobRequestSchema } from "../../app/features/scheduling/job-request/schema";
import { assessmentSchema } from "../../app/features/skills/assessment/schema";
import { lengthConstraintsOf } from "../../app/forms/field-limits";
import { expect, test } from "./fixtures";

const TEXT_CONTROLS =
  'input[type="text"], input[type="email"], input[type="tel"], input[type="search"], input:not([type]), textarea';

/**
 * Every typed answer of the form carries the cap the server enforces as its maxlength (the one in the form's
 * schema), and every capped answer is on the form.
 */
async function expectServerLimits(form: Locator, limits: ReturnType<typeof lengthConstraintsOf>) {
  const named = await form
    .locator(TEXT_CONTROLS)
    .evaluateAll((controls) =>
      controls
        .map((control) => [control.getAttribute("name") ?? "", control.getAttribute("maxlength")] as const)
        .filter(([name]) => !name.startsWith("_") && name !== "website"),
    );
  expect(named.length).toBeGreaterThan(0);
  for (const [name, maxLength] of named) {
    // An answer the server reads as something else (an amount) has no length cap, and no maxlength.
    const limit = limits[name];
    expect(maxLength, name).toBe(limit ? String(limit.maxLength) : null);
  }
  for (const name of Object.keys(limits)) {
    expect(
      named.some(([shown]) => shown === name),
      name,
    ).toBe(true);
  }
}

test("every field of the estimate form carries the server's length limit", async ({ page }) => {
  await page.goto("/lighting");
  await expectServerLimits(page.locator("#form"), lengthConstraintsOf(estimateSchema));
});

test("every field of the application carries the server's length limit", async ({ page }) => {
  await page.goto("/apply");
  await expectServerLimits(
    page.locator("form").filter({ has: page.getByLabel("First name") }),
    lengthConstraintsOf(applicationSchema),
  );
});

test("every text answer of the assessment carries the server's length limit", async ({ page }) => {
  await page.goto("/assessment?all");
  await expectServerLimits(
    page.locator("form").filter({ has: page.getByRole("button", { name: /Submit/ }) }),
    lengthConstraintsOf(assessmentSchema),
  );
});

test("every text answer of the staff tools' forms carries the server's length limit", async ({
  page,
  signInAsStaff,
}) => {
  await signInAsStaff("staff", "length-limits");
  for (const { path, schema, send } of [
    { path: "/admin/quick-links/estimate-request", schema: estimateRequestSchema, send: "Submit" },
    { path: "/admin/quick-links/job-request", schema: jobRequestSchema, send: "Submit" },
    { path: "/admin/quick-links/estimate-checklist", schema: checklistSchema, send: "Submit Checklist" },
    { path: "/admin/quick-links/peer-review", schema: peerReviewSchema, send: "Submit" },
  ]) {
    await page.goto(path);
    await expectServerLimits(
      page.locator("form").filter({ has: page.getByRole("button", { name: send, exact: true }) }),
      lengthConstraintsOf(schema),
    );
  }
});

test("a long answer shows how much of its limit is used, and typing stops at the limit", async ({ page }) => {
  await page.goto("/apply");
  const certifications = page.getByLabel("Certifications");
  const limit = lengthConstraintsOf(applicationSchema).certifications?.maxLength ?? 0;
  await certifications.fill("OSHA 10");
  await expect(page.getByText(`7 / ${limit}`)).toBeVisible();
  await certifications.fill("x".repeat(limit));
  await certifications.press("y");
  await expect(certifications).toHaveValue("x".repeat(limit));
  await expect(page.getByText("0 characters left")).toBeAttached();
});
