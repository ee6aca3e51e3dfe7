import type { Page } from "@playwright/test";
import { signOutEverywhere } from "../../app/services/auth/sessions.server";
import { withAppDatabase } from "../support/app-database";
import { expect, test } from "./fixtures";
import { staffPageCaches } from "./kept-pages";
import { cutSignal, restoreSignal } from "./signal";

const dataDir = () => process.env.E2E_DATA_DIR ?? "";
const TOOL = "/admin/quick-links/job-request";

/** Waits until the staff app keeps the tool's page, and answers the name of the cache that holds it. */
async function toolKept(page: Page): Promise<string> {
  await expect
    .poll(async () => (await staffPageCaches(page)).filter((cache) => cache.paths.includes(TOOL)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  const [kept] = await staffPageCaches(page);
  return kept?.name ?? "";
}

/** Opens the tool's page without signal and checks that nothing of `username` is shown. */
async function expectNotShownOffline(page: Page, username: string) {
  await cutSignal(page.context());
  await page.goto(TOOL).catch(() => undefined);
  await expect(page.getByText(username)).toHaveCount(0);
  await restoreSignal(page.context());
}

test("the tool pages kept on the device are one session's: gone when it ends on the server, and never another person's", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  const first = await signInAsStaff("staff", "kept-first");
  await page.goto("/admin/quick-links");
  const firstCache = await toolKept(page);

  // Another person signs in on this device: the first one's pages go, and theirs are kept under another name.
  const second = await signInAsStaff("staff", "kept-second");
  await page.goto("/admin/quick-links");
  await expect(page.getByText(second.username)).toBeVisible();
  await expect.poll(async () => (await staffPageCaches(page)).map((cache) => cache.name)).not.toContain(firstCache);
  await toolKept(page);
  await expectNotShownOffline(page, first.username);

  // Their session ends on the server (an admin's "sign out everywhere"): the next staff page asks to sign in, and
  // the kept pages are gone from the device.
  await withAppDatabase(dataDir(), (db) => signOutEverywhere(db, second.id));
  await page.goto("/admin/quick-links");
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  // What matters is that no page is kept: a request to keep them sent by the page before, and reaching the worker
  // late on a loaded machine, may open its session's cache again, and finds the server answering with a redirect.
  await expect.poll(async () => (await staffPageCaches(page)).flatMap((cache) => cache.paths)).toEqual([]);
  await expectNotShownOffline(page, second.username);
});
