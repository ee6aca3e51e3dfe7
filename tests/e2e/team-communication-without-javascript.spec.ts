import type { Locator, Page } from "@playwright/test";
import { queryAppDatabase } from "../support/submission-lookup";
import { expect, test } from "./fixtures";
import { holdScripts } from "./held-scripts";

/**
 * The Team Communication screen's layout without JavaScript: where a sent message comes back, and the
 * technician list with none of the room that the search and Select All take once scripts run. With scripts,
 * that room is kept from the first paint, so the list does not move when they appear.
 */

const SCREEN = "/admin/quick-links/team-communication";

/** Rows that fill the technician list to its full height, whatever else the specs added to the directory. */
const FULL_LIST = 8;

let sequence = 0;
/** Adds technicians no other test uses to the staff directory of the app the specs share; resolves with their names. */
async function addTechnicians(project: string, count = 1): Promise<string[]> {
  const names = Array.from(
    { length: count },
    () => `Tess ${project} ${Date.now().toString(36)}${(sequence++).toString(36)}${process.pid}`,
  );
  for (const name of names) {
    await queryAppDatabase(
      process.env.E2E_DATA_DIR ?? "",
      "INSERT INTO staff_directory (name, email) VALUES ($1, $2)",
      [name, `${name.replace(/\W+/g, ".").toLowerCase()}@example.com`],
    );
  }
  return names;
}

const technicians = (page: Page) => page.getByRole("group", { name: "Technicians" });
const firstTechnician = (page: Page) => technicians(page).getByRole("checkbox").first();

/** Where the element is on the screen now, in CSS pixels from the viewport's top left. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box`);
  return box;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a sent message comes back with its outcome in view, below the sticky staff header", async ({
    page,
    signInAsStaff,
  }, info) => {
    await signInAsStaff("staff", "team-message-no-js");
    const [name = ""] = await addTechnicians(info.project.name, FULL_LIST);
    // A window well shorter than the page, so the browser can scroll the outcome right to the top: on a page that
    // ends sooner it stops lower, clear of the header or not by chance.
    await page.setViewportSize({ width: page.viewportSize()?.width ?? 0, height: 480 });
    await page.goto(SCREEN);
    await page.getByRole("checkbox", { name }).check();
    await page.getByLabel("Subject").fill("Storm crew tonight");
    await page.getByLabel("Body").fill("Meet at the yard at 6 pm.");
    await page.getByRole("button", { name: "Send Message" }).click();

    // The shared app has no email set up: the outcome says the message was saved, not sent.
    const outcome = page.getByRole("status").filter({
      hasText: "Saved, but not sent: email is not set up on this server. An admin can set it up.",
    });
    await expect(outcome).toBeInViewport({ ratio: 1 });
    const header = await boxOf(page.getByRole("banner"));
    expect((await boxOf(outcome)).y).toBeGreaterThanOrEqual(header.y + header.height);
  });

  test("the technician list follows its legend, with no room kept for the search and Select All", async ({
    page,
    signInAsStaff,
  }, info) => {
    await signInAsStaff("staff", "team-message-no-js");
    await addTechnicians(info.project.name);
    await page.goto(SCREEN);
    await expect(firstTechnician(page)).toBeVisible();

    const legend = await boxOf(technicians(page).locator("legend"));
    const count = await boxOf(technicians(page).getByText(/^\d+ of \d+ selected$/));
    // The count line's own margin (0.5rem) is all that lies between it and the legend.
    expect(count.y - (legend.y + legend.height)).toBeLessThanOrEqual(12);
  });
});

test.describe("with JavaScript", () => {
  // The page's scripts are held on their way from the server; a service worker would answer from its cache.
  test.use({ serviceWorkers: "block" });

  test("the search and Select All appear where the list left room for them: the list does not move", async ({
    page,
    signInAsStaff,
  }, info) => {
    await signInAsStaff("staff", "team-message-js");
    await addTechnicians(info.project.name);
    const releaseScripts = await holdScripts(page);
    await page.goto(SCREEN, { waitUntil: "commit" });
    await expect(firstTechnician(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Select All" })).toBeHidden();
    const beforeScripts = await boxOf(firstTechnician(page));

    releaseScripts();
    await expect(page.getByRole("searchbox", { name: "Search technicians by name" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Select All" })).toBeVisible();
    expect(await boxOf(firstTechnician(page))).toEqual(beforeScripts);
  });
});
