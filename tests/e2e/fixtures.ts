import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import type { StaffRole } from "../../app/services/db/schema.server";
import { startStaffSession } from "../support/staff-session";

/** An app to sign in to: the one every spec shares by default, or one a spec started itself. */
type AppUnderTest = { url: string; dataDir: string };

/**
 * Signs the browser context in as a new staff user of the role, without the sign-in form: the user and a
 * session are created in the app's database, and the session's signed cookie is handed to the browser.
 * Resolves with the user, whose name a test can look for on the page.
 */
type SignInAsStaff = (role: StaffRole, label: string, app?: AppUnderTest) => Promise<{ id: number; username: string }>;

/**
 * Every browser test runs with the site's real Content-Security-Policy, and fails if the browser reports a
 * violation: a script, style, frame or connection the policy blocked is a broken page for a visitor.
 */
export const test = base.extend<{ contentSecurityPolicyViolations: string[]; signInAsStaff: SignInAsStaff }>({
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
  signInAsStaff: async ({ context, baseURL }, use) => {
    await use(async (role, label, app) => {
      const { url, dataDir } = app ?? { url: baseURL ?? "", dataDir: process.env.E2E_DATA_DIR ?? "" };
      const { user, cookie } = await startStaffSession({ dataDir, role, label });
      const [name = "", value = ""] = cookie.split(/=(.*)/s);
      // Secure, host-only and path `/`, as the app sets its `__Host-` cookie; Chromium treats 127.0.0.1 as secure.
      await context.addCookies([
        { name, value, domain: new URL(url).hostname, path: "/", secure: true, httpOnly: true, sameSite: "Lax" },
      ]);
      return user;
    });
  },
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
