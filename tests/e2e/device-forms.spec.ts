import type { Page } from "@playwright/test";
import { JOB_LABELS, validJobRequest } from "../support/staff-request-fixture";
import { queryAppDatabase } from "../support/submission-lookup";
import { expect, test } from "./fixtures";
import { cutSignal, restoreSignal } from "./signal";
import { addStaffAccount, signIn, signInThroughForm } from "./staff-users";

/*
 * Where the device's pieces meet (decision 1002): a form kept without signal and the next one typed after it,
 * the same form in two tabs, a waiting form changed or cancelled. Each set of answers pressed Submit on is stored
 * once, under its own reference, and the success names that one.
 */

const JOB_REQUEST = "/admin/quick-links/job-request";

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));

let sequence = 0;
const uniqueJob = (what: string) => `${what} ${Date.now().toString(36)}${(sequence++).toString(36)}${process.pid}`;

/** Types a whole job request over whatever the form shows, under its own job name. */
async function typeJobRequest(page: Page, jobName: string) {
  for (const [key, label] of Object.entries(JOB_LABELS)) {
    await field(page, label).fill(key === "jobName" ? jobName : validJobRequest[key as keyof typeof JOB_LABELS]);
  }
}

const submit = (page: Page) => page.getByRole("button", { name: "Submit", exact: true }).click();

/** The reference the success names, once it shows. */
async function successReference(page: Page): Promise<string> {
  const success = page.getByRole("status").filter({ hasText: /submitted successfully! Reference JOB-[0-9A-Z]{6}\./ });
  await expect(success).toBeVisible({ timeout: 20_000 });
  return /JOB-[0-9A-Z]{6}/.exec((await success.textContent()) ?? "")?.[0] ?? "";
}

/** The references stored under a job name. */
const storedReferences = async (jobName: string) =>
  (
    await queryAppDatabase<{ reference: string }>(
      process.env.E2E_DATA_DIR ?? "",
      "SELECT reference FROM submissions WHERE type = 'job-request' AND payload->>'jobName' = $1",
      [jobName],
    )
  ).map((row) => row.reference);

const waitingRegion = (page: Page) => page.getByRole("region", { name: "Waiting to be sent" });

test("a form kept without signal, then the next job typed and sent, stores both under their own references", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(90_000);
  await signInAsStaff("staff", "kept-then-next");
  await page.goto(JOB_REQUEST);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();

  const kept = uniqueJob("Basement job");
  await typeJobRequest(page, kept);
  await cutSignal(context);
  await submit(page);
  await expect(page.getByRole("alert").filter({ hasText: "kept on this device" })).toBeVisible();
  // Handed to the queue, the form starts afresh: the next job is not typed over the kept one.
  await expect(field(page, "Job Name")).toHaveValue("");

  await restoreSignal(context);
  await page.goto(JOB_REQUEST);
  await expect(field(page, "Job Name")).toHaveValue("");
  const next = uniqueJob("Next job");
  await typeJobRequest(page, next);
  await submit(page);
  const reference = await successReference(page);

  await expect.poll(() => storedReferences(kept), { timeout: 30_000 }).toHaveLength(1);
  expect(await storedReferences(next)).toEqual([reference]);
  expect(await storedReferences(kept)).not.toContain(reference);
});

test("two forms kept one after the other without signal each start a new form, and both jobs are stored", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(90_000);
  await signInAsStaff("staff", "kept-twice");
  await page.goto(JOB_REQUEST);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();

  await cutSignal(context);
  const jobs = [uniqueJob("First kept job"), uniqueJob("Second kept job")];
  for (const job of jobs) {
    await typeJobRequest(page, job);
    await submit(page);
    await expect(page.getByRole("alert").filter({ hasText: "kept on this device" })).toBeVisible();
    await expect(waitingRegion(page).getByRole("listitem").filter({ hasText: job })).toBeVisible();
    // The same answer twice still hands each form over: the next job starts on a form (and key) of its own.
    await expect(field(page, "Job Name")).toHaveValue("");
  }

  await restoreSignal(context);
  await page.goto(JOB_REQUEST);
  await expect
    .poll(() => Promise.all(jobs.map(storedReferences)), { timeout: 30_000 })
    .toEqual([[expect.stringMatching(/^JOB-/)], [expect.stringMatching(/^JOB-/)]]);
});

test("the same form in two tabs gets a key of its own in each, and both jobs are stored", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(90_000);
  await signInAsStaff("staff", "two-tabs");
  await page.goto(JOB_REQUEST);
  const first = uniqueJob("First tab job");
  await typeJobRequest(page, first);
  await expect(page.getByText(/^Draft saved on this device at/)).toBeVisible();

  // The second tab does not open the first one's draft: it is a new form.
  const other = await context.newPage();
  await other.goto(JOB_REQUEST);
  await expect(other.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  await expect(field(other, "Job Name")).toHaveValue("");
  const second = uniqueJob("Second tab job");
  await typeJobRequest(other, second);
  const keys = await Promise.all(
    [page, other].map((tab) => tab.locator('input[name="submissionKey"]').getAttribute("value")),
  );
  expect(new Set(keys).size).toBe(2);

  await submit(page);
  const firstReference = await successReference(page);
  await submit(other);
  const secondReference = await successReference(other);
  expect(secondReference).not.toBe(firstReference);
  expect(await storedReferences(first)).toEqual([firstReference]);
  expect(await storedReferences(second)).toEqual([secondReference]);

  // Each tab's reload brings back its own form, not the other's.
  await typeJobRequest(page, uniqueJob("Reloaded"));
  const reloadedName = await field(page, "Job Name").inputValue();
  await expect(page.getByText(/^Draft saved on this device at/)).toBeVisible();
  await page.reload();
  await expect(field(page, "Job Name")).toHaveValue(reloadedName);
  await other.reload();
  await expect(other.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  await expect(field(other, "Job Name")).toHaveValue("");
});

test("a waiting form can be read, changed back into its form and sent with the change, or cancelled", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(90_000);
  await signInAsStaff("staff", "change-waiting");
  await page.goto(JOB_REQUEST);
  const typed = uniqueJob("Typo job");
  await typeJobRequest(page, typed);
  await cutSignal(context);
  await submit(page);
  const waiting = waitingRegion(page);
  await waiting.getByText("Its answers").click();
  await expect(waiting.getByRole("definition").filter({ hasText: typed })).toBeVisible();

  // Changed while still without signal: it is the form's draft again, with every answer.
  await waiting.getByRole("button", { name: /^Change job request/ }).click();
  await expect(field(page, "Job Name")).toHaveValue(typed);
  await expect(waiting).toHaveCount(0);
  const corrected = uniqueJob("Corrected job");
  await field(page, "Job Name").fill(corrected);
  await restoreSignal(context);
  await submit(page);
  const reference = await successReference(page);
  expect(await storedReferences(corrected)).toEqual([reference]);
  expect(await storedReferences(typed)).toEqual([]);

  // Cancelled: nothing is sent, and the device keeps nothing of it.
  const dropped = uniqueJob("Dropped job");
  await typeJobRequest(page, dropped);
  await cutSignal(context);
  await submit(page);
  await expect(waiting).toContainText("Job request");
  page.once("dialog", (dialog) => void dialog.accept());
  await waiting.getByRole("button", { name: /^Cancel job request/ }).click();
  await expect(waiting).toHaveCount(0);
  await restoreSignal(context);
  await page.goto(JOB_REQUEST);
  await expect(field(page, "Job Name")).toHaveValue("");
  await page.goto("/admin/quick-links");
  await expect(page.getByRole("heading", { level: 1, name: "Quick Links" })).toBeVisible();
  expect(await storedReferences(dropped)).toEqual([]);
});

test("a form waiting for a sign-in is sent once from the tab signed in, and never shown or sent for another person", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const first = addStaffAccount("staff", "waits-for-sign-in");
  const other = addStaffAccount("staff", "signs-in-between");
  await signIn(page, first);
  await page.goto(JOB_REQUEST);
  const jobName = uniqueJob("Signed out job");
  await typeJobRequest(page, jobName);
  await context.clearCookies();
  await submit(page);
  await expect(page.getByRole("alert").filter({ hasText: "signed out" })).toBeVisible();
  await expect(waitingRegion(page)).toContainText("your session had ended; it is sent when you sign in again.");
  await expect(field(page, "Job Name")).toHaveValue("");

  // Someone else signs in on this device, in another tab: nothing of the first person's shows, nothing is sent.
  const otherTab = await context.newPage();
  await signIn(otherTab, other);
  await otherTab.goto(JOB_REQUEST);
  await expect(otherTab.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  await expect(field(otherTab, "Job Name")).toHaveValue("");
  await expect(waitingRegion(otherTab)).toHaveCount(0);
  await expect(otherTab.getByText(jobName)).toHaveCount(0);
  // The first tab, still the first person's page, tries what waits (the signal's return): the server takes
  // nothing of theirs under the other's session, and it goes on waiting for them.
  const tried = page.waitForResponse(
    (response) => response.url().includes(JOB_REQUEST) && response.request().method() === "POST",
  );
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  expect((await tried).status()).toBe(409);
  await expect(waitingRegion(page)).toContainText("your session had ended; it is sent when you sign in again.");
  expect(await storedReferences(jobName)).toEqual([]);
  await expect(waitingRegion(page)).toContainText("Job request");
  await otherTab.getByRole("button", { name: "Log out" }).click();
  await expect(otherTab.getByRole("button", { name: "Login" })).toBeVisible();

  // The first person signs in again in that tab: it is sent from there, once, and the first tab sees it gone.
  await signInThroughForm(otherTab, first.username, first.password);
  const sent = otherTab.getByRole("status").filter({ hasText: /^Sent: Job request, reference JOB-[0-9A-Z]{6}\.$/ });
  await expect(sent).toBeVisible({ timeout: 20_000 });
  const reference = /JOB-[0-9A-Z]{6}/.exec((await sent.textContent()) ?? "")?.[0];
  await expect(waitingRegion(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  await expect(waitingRegion(page)).toHaveCount(0);
  expect(await storedReferences(jobName)).toEqual([reference]);
});

test("a draft kept in the store of the version before the model opens in its form after the update", async ({
  page,
  signInAsStaff,
}) => {
  const user = await signInAsStaff("staff", "earlier-draft");
  await page.goto(JOB_REQUEST);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  const jobName = uniqueJob("Kept before the update");
  // As the earlier version kept it: answers by form type and person, in the `form-drafts` database.
  await page.evaluate(
    ({ userId, jobName }) =>
      new Promise<void>((resolve, reject) => {
        const opened = indexedDB.open("form-drafts");
        opened.onupgradeneeded = () => opened.result.createObjectStore("drafts");
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
          const write = opened.result.transaction("drafts", "readwrite");
          write
            .objectStore("drafts")
            .put(
              { values: { jobName: [jobName] }, submissionKey: crypto.randomUUID(), savedAt: new Date().toISOString() },
              `answers:job-request:${userId}`,
            );
          write.oncomplete = () => {
            opened.result.close();
            resolve();
          };
        };
      }),
    { userId: user.id, jobName },
  );
  await page.reload();
  await expect(field(page, JOB_LABELS.jobName)).toHaveValue(jobName);
});
