import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every browser test runs with the site's real Content-Security-Policy, and fails if the browser reports a
 * violation: a script, style, frame or connection the policy blocked is a broken page for a visitor.
 */
export const test = base.extend<{ contentSecurityPolicyViolations: string[] }>({
  contentSecurityPolicyViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use(violations);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"];

/** Runs axe over the page as it is now, against WCAG 2.2 A and AA; `screen` names it in a failure. */
export async function expectNoAxeViolations(page: Page, screen?: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect(
    results.violations.map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((node) => node.target) })),
    screen,
  ).toEqual([]);
}
