import type { Page } from "@playwright/test";
import { staffToolLinks } from "../../app/features/quick-links.server";
import { expect, test } from "./fixtures";

/** Opens a staff page and waits until React has taken it over: the browser idle after the load. */
async function openStaffPage(page: Page, path: string) {
  await page.goto(path, { waitUntil: "load" });
  await page.evaluate(() => new Promise((settled) => requestIdleCallback(settled)));
}

declare global {
  interface Window {
    /** What made a date or number formatter while the page opened, by name (set by the init script below). */
    formattersMade?: string[];
  }
}

/**
 * A browser's first date or number formatter loads its locale and time-zone data: 55–215 ms of a desktop's main
 * thread, four times that on a phone, while the page is opening. The servers format what staff read.
 */
test("the staff pages open without making a date or number formatter in the browser", async ({
  page,
  signInAsStaff,
}) => {
  const admin = await signInAsStaff("admin", "opening");
  await page.addInitScript(() => {
    const made: string[] = [];
    window.formattersMade = made;
    const count = <Target extends object>(owner: Target, name: keyof Target & string, label: string) => {
      const original = owner[name] as unknown as (...args: unknown[]) => unknown;
      Object.defineProperty(owner, name, {
        configurable: true,
        writable: true,
        value: new Proxy(original, {
          construct(target, args, newTarget) {
            made.push(label);
            return Reflect.construct(target, args, newTarget);
          },
          apply(target, self, args) {
            made.push(label);
            return Reflect.apply(target, self, args);
          },
        }),
      });
    };
    count(Intl, "DateTimeFormat", "Intl.DateTimeFormat");
    count(Intl, "NumberFormat", "Intl.NumberFormat");
    count(Date.prototype, "toLocaleString", "Date.toLocaleString");
    count(Date.prototype, "toLocaleDateString", "Date.toLocaleDateString");
    count(Date.prototype, "toLocaleTimeString", "Date.toLocaleTimeString");
    count(Number.prototype, "toLocaleString", "Number.toLocaleString");
  });

  // The inbox always shows its new-submission counts, the staff pages each account's last sign-in.
  for (const path of ["/admin/quick-links", "/admin/inbox", "/admin/staff", `/admin/staff/${admin.id}`]) {
    await openStaffPage(page, path);
    expect(await page.evaluate(() => window.formattersMade), path).toEqual([]);
  }
});

/** Far below Lighthouse's "good" (0.1), and below Team Communication's 0.025–0.063 when its controls appeared. */
const UNSEEN_SHIFT = 0.01;

test("the staff pages do not move once they have opened", async ({ page, signInAsStaff }) => {
  await signInAsStaff("admin", "steady");
  for (const path of ["/admin/quick-links", "/admin/inbox", ...staffToolLinks.map((tool) => tool.path)]) {
    await openStaffPage(page, path);
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((settled) => {
          new PerformanceObserver((entries) =>
            settled(
              entries
                .getEntries()
                .map((entry) => (entry as PerformanceEntry & { value: number }).value)
                .reduce((sum, value) => sum + value, 0),
            ),
          ).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => settled(0), 500);
        }),
    );
    expect(shifted, `${path} moved while it opened`).toBeLessThan(UNSEEN_SHIFT);
  }
});
