import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, devices, type Page } from "@playwright/test";
import { type AppServer, projectRoot, startAppServer } from "../support/app-server";
import { chromiumLaunchOptions } from "../support/chromium";
import { postEstimate } from "../support/estimate-post";
import { JOB_LABELS, validJobRequest } from "../support/staff-request-fixture";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { expect, test } from "./fixtures";
import { staffPageCaches } from "./kept-pages";
import { cutSignal, restoreSignal } from "./signal";
import { addStaffAccount, signInThroughForm } from "./staff-users";

const QUICK_LINKS = "/admin/quick-links";
/** Each staff tool, by its page heading and the button that sends its form. */
const TOOLS = [
  { path: "/admin/quick-links/estimate-request", heading: "Estimate Request Form", send: "Submit" },
  { path: "/admin/quick-links/job-request", heading: "Job Request Form", send: "Submit" },
  { path: "/admin/quick-links/team-communication", heading: "Team Communication", send: "Send Message" },
  { path: "/admin/quick-links/estimate-checklist", heading: "Estimate Checklist", send: "Submit Checklist" },
  { path: "/admin/quick-links/peer-review", heading: "Peer Review Questionnaire", send: "Submit" },
] as const;

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));

/** Waits until the service worker controls the page and keeps Quick Links and every tool's page. */
async function expectToolsKept(page: Page) {
  // Not `navigator.serviceWorker.ready`: a page that signed in at /admin was made outside the worker's scope.
  // The worker is active once it has fetched the whole staff app: on a busy machine, more than 7 s.
  await expect
    .poll(
      () => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration("/admin/"))?.active)),
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect
    .poll(async () => (await staffPageCaches(page)).flatMap((cache) => cache.paths), { timeout: 20_000 })
    .toEqual([QUICK_LINKS, ...TOOLS.map((tool) => tool.path)].sort());
}

/** Fills and sends a job request with a name of its own, which it answers. */
async function sendJobRequest(page: Page, appUrl: string) {
  await page.goto(`${appUrl}/admin/quick-links/job-request`);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeEnabled();
  const jobName = `${validJobRequest.jobName} ${Date.now()}`;
  for (const [key, label] of Object.entries(JOB_LABELS)) {
    await field(page, label).fill(key === "jobName" ? jobName : validJobRequest[key as keyof typeof JOB_LABELS]);
  }
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  return jobName;
}

/** Runs `steps` against an app of its own whose job requests reach a loopback webhook receiver. */
async function withJobRequestReceiver(steps: (app: AppServer, receiver: WebhookReceiver) => Promise<void>) {
  const receiver = await startWebhookReceiver();
  const app = await startAppServer({ env: { WEBHOOK_JOB_REQUEST_URL: receiver.url } });
  try {
    await steps(app, receiver);
  } finally {
    await app.stop();
    await receiver.close();
  }
}

/** Opens a page that may not be there without signal: the browser's own error page is no failure here. */
const openOffline = (page: Page, url: string) => page.goto(url).catch(() => undefined);

test("the staff area is an installable app, and the public pages have no manifest or service worker", async ({
  page,
  context,
  request,
  baseURL,
  signInAsStaff,
}) => {
  test.setTimeout(90_000);
  await signInAsStaff("staff", "installable");
  await page.goto(QUICK_LINKS);
  const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(manifestUrl).toBe("/admin/manifest.webmanifest");
  const manifest = (await (await request.get(manifestUrl ?? "")).json()) as {
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ start_url: QUICK_LINKS, display: "standalone" });
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? "any"}`)).toEqual([
    "192x192 any",
    "512x512 any",
    "512x512 maskable",
  ]);
  for (const icon of manifest.icons) {
    const answer = await request.get(icon.src);
    expect(answer.status(), icon.src).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/png");
  }

  // Chromium does not install from a private window, which every test context is: a profile of its own.
  const profile = mkdtempSync(path.join(tmpdir(), "tce-installable-"));
  const { defaultBrowserType: _, ...phone } = devices["Pixel 7"];
  const browser = await chromium.launchPersistentContext(profile, { ...chromiumLaunchOptions(), ...phone, baseURL });
  try {
    await browser.addCookies(await context.cookies());
    const installed = browser.pages()[0] ?? (await browser.newPage());
    await installed.goto(QUICK_LINKS);
    await expectToolsKept(installed);
    const devtools = await browser.newCDPSession(installed);
    const { installabilityErrors } = await devtools.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }

  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration("/"))).toBeUndefined();
});

test("after one visit to Quick Links every tool opens without signal, and a job request sent without signal is sent by itself once the signal returns", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  await withJobRequestReceiver(async (app, receiver) => {
    // A lead waiting on the person: Quick Links shows its phone, which is never kept on the device.
    expect((await postEstimate(`${app.url}/learnmore`)).reference).toBeDefined();
    await signInAsStaff("staff", "no-signal", app);
    await page.goto(`${app.url}${QUICK_LINKS}`);
    const name = (await page.getByText("Signed in as").locator("strong").textContent()) ?? "";
    expect(name).not.toBe("");
    await expectToolsKept(page);
    const callLead = page.getByRole("link", { name: /^Call / });
    await page.reload();
    await expect(callLead).toHaveCount(1);

    await cutSignal(context);
    for (const tool of TOOLS) {
      await page.goto(`${app.url}${tool.path}`);
      await expect(page.getByRole("heading", { level: 1, name: tool.heading })).toBeVisible();
      await expect(page.getByRole("button", { name: tool.send, exact: true })).toBeVisible();
    }
    // The page is the tool's, kept: the form works as online, and what it cannot send it keeps.
    const jobName = await sendJobRequest(page, app.url);
    const kept = page.getByRole("alert").filter({ hasText: "kept on this device and will be sent by itself" });
    await expect(kept).toBeInViewport();

    // Quick Links, opened without signal, lists what waits, and no lead's phone.
    await page.goto(`${app.url}${QUICK_LINKS}`);
    const waiting = page.getByRole("region", { name: "Waiting to be sent" });
    await expect(waiting).toContainText("Job request");
    await expect(callLead).toHaveCount(0);

    // The inbox and submissions are never kept: without signal they show nothing of a submission.
    await openOffline(page, `${app.url}/admin/inbox`);
    await expect(page.getByText(jobName)).toHaveCount(0);

    await page.goto(`${app.url}${QUICK_LINKS}`);
    await expect(waiting).toContainText("Job request");
    await restoreSignal(context);
    const [delivered] = await receiver.waitForRequests(1, 60_000);
    const sent = page.getByRole("status").filter({ hasText: /Sent: Job request, reference JOB-[0-9A-Z]{6}\./ });
    await expect(sent).toBeVisible();
    expect(delivered?.headers["submission-reference"]).toBe(
      /JOB-[0-9A-Z]{6}/.exec((await sent.textContent()) ?? "")?.[0],
    );
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ jobName });
    await expect(waiting).toHaveCount(0);
    // Opened again, nothing waits and nothing is sent again.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Quick Links" })).toBeVisible();
    await expect(waiting).toHaveCount(0);
    expect(receiver.requests).toHaveLength(1);

    // Logging out clears the kept pages: without signal no staff page shows the person's name.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await cutSignal(context);
    for (const url of [QUICK_LINKS, ...TOOLS.map((tool) => tool.path)]) {
      await openOffline(page, `${app.url}${url}`);
      await expect(page.getByText(name)).toHaveCount(0);
    }
    await restoreSignal(context);
  });
});

test("a kept form the server could not take although the device reported signal is tried again while the page stays open", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  await withJobRequestReceiver(async (app, receiver) => {
    await signInAsStaff("staff", "signal-without-data", app);
    await page.goto(`${app.url}${QUICK_LINKS}`);
    await expectToolsKept(page);
    await cutSignal(context);
    const jobName = await sendJobRequest(page, app.url);
    await expect(page.getByRole("alert").filter({ hasText: "kept on this device" })).toBeInViewport();
    await page.goto(`${app.url}${QUICK_LINKS}`);
    const waiting = page.getByRole("region", { name: "Waiting to be sent" });
    await expect(waiting).toContainText("Job request");

    // The phone reports signal again, but nothing gets through (a captive portal): the try on `online` fails.
    let refused = 0;
    await context.route(`${app.url}/admin/quick-links/job-request.data`, (route) => {
      refused += 1;
      return route.abort("connectionrefused");
    });
    await restoreSignal(context);
    await expect.poll(() => refused).toBeGreaterThan(0);
    await expect(waiting).toContainText("sent by itself when the signal returns.");

    // Once requests get through, the page sends it by itself, with no new `online` event and no reload.
    await context.unrouteAll({ behavior: "wait" });
    const [delivered] = await receiver.waitForRequests(1, 45_000);
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ jobName });
    await expect(page.getByRole("status").filter({ hasText: /Sent: Job request, reference JOB-/ })).toBeVisible();
    await expect(waiting).toHaveCount(0);
  });
});

test("a form kept while the session ended waits for the next sign-in, and logging out asks before dropping what waits", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await withJobRequestReceiver(async (app, receiver) => {
    const waiting = page.getByRole("region", { name: "Waiting to be sent" });
    const signInAgain = async () => {
      await page.goto(`${app.url}/admin`);
      await signInThroughForm(page, account.username, account.password);
      await expect(page.getByRole("heading", { level: 1, name: "Quick Links" })).toBeVisible();
    };
    /** Sends a job request without signal, and ends the session before the signal returns to Quick Links. */
    const keepWhileSessionEnds = async () => {
      await cutSignal(context);
      const jobName = await sendJobRequest(page, app.url);
      await expect(page.getByRole("alert").filter({ hasText: "kept on this device" })).toBeInViewport();
      await context.clearCookies();
      await page.goto(`${app.url}${QUICK_LINKS}`);
      await restoreSignal(context);
      await expect(waiting).toContainText("your session had ended; it is sent when you sign in again.");
      return jobName;
    };
    const account = addStaffAccount("staff", "session-ended", app.dataDir);
    await signInAgain();
    await expectToolsKept(page);
    const first = await keepWhileSessionEnds();
    expect(receiver.requests).toHaveLength(0);

    // Logging out asks first while something waits, and staying keeps it.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Log out" }).click();
    await expect
      .poll(() => asked)
      .toEqual(["1 form(s) you sent without signal are not sent yet and would be lost. Log out anyway?"]);
    await expect(waiting).toContainText("Job request");

    // The next sign-in sends it, once, and shows its reference.
    await signInAgain();
    const [delivered] = await receiver.waitForRequests(1, 60_000);
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ jobName: first });
    const reference = delivered?.headers["submission-reference"] ?? "";
    await expect(
      page.getByRole("status").filter({ hasText: `Sent: Job request, reference ${reference}.` }),
    ).toBeVisible();
    await expect(waiting).toHaveCount(0);

    // Leaving anyway drops what waits and its draft from the device.
    await expectToolsKept(page);
    await keepWhileSessionEnds();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await signInAgain();
    await expect(waiting).toHaveCount(0);
    await page.goto(`${app.url}/admin/quick-links/job-request`);
    await expect(page.getByLabel(/^Job Name/)).toHaveValue("");
    expect(receiver.requests).toHaveLength(1);
  });
});

test("a new build's service worker takes over, and the old build's kept pages are gone", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  const first = await startAppServer({});
  const port = new URL(first.url).port;
  await signInAsStaff("staff", "new-build", first);
  await page.goto(`${first.url}${QUICK_LINKS}`);
  await expectToolsKept(page);
  const [oldCache] = await staffPageCaches(page);
  await first.stop();

  // The next build: the same app, with a service worker of another version.
  const nextRoot = mkdtempSync(path.join(tmpdir(), "tce-next-build-"));
  try {
    cpSync(path.join(projectRoot, "build"), path.join(nextRoot, "build"), { recursive: true });
    for (const needed of ["package.json", "drizzle"]) {
      cpSync(path.join(projectRoot, needed), path.join(nextRoot, needed), { recursive: true });
    }
    symlinkSync(path.join(projectRoot, "node_modules"), path.join(nextRoot, "node_modules"));
    const worker = path.join(nextRoot, "build/client/admin/service-worker.js");
    // staff-pages-<build>-for-<session's id>
    const oldVersion = /^staff-pages-(.+)-for-[0-9a-f]{32}$/.exec(oldCache?.name ?? "")?.[1] ?? "";
    expect(oldVersion).not.toBe("");
    writeFileSync(worker, readFileSync(worker, "utf8").replaceAll(oldVersion, "next-build"));
    rmSync(`${worker}.br`);
    rmSync(`${worker}.gz`);
    const next = await startAppServer({ root: nextRoot, dataDir: first.dataDir, env: { PORT: port } });
    try {
      await page.reload();
      // The new worker takes over, and the page reloads under it.
      const reloaded = page.waitForEvent("load");
      await page.getByRole("button", { name: "Reload to update" }).click();
      await reloaded;
      await expect
        .poll(async () => (await staffPageCaches(page)).map((cache) => cache.name), { timeout: 20_000 })
        .toEqual([expect.stringMatching(/^staff-pages-next-build-for-[0-9a-f]{32}$/)]);
      await expectToolsKept(page);
      expect(
        await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/admin/"))?.active?.scriptURL),
      ).toBe(`${next.url}/admin/service-worker.js`);
    } finally {
      await next.stop();
    }
  } finally {
    rmSync(nextRoot, { recursive: true, force: true });
  }
});

test("logging out without signal shows the device logged out, and ends the session once the signal returns", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const app = await startAppServer();
  const account = addStaffAccount("staff", "offline-logout", app.dataDir);
  /** Whether the server still takes the session the browser had, asked from outside the browser. */
  const sessionTaken = async (cookie: string) =>
    (await fetch(`${app.url}${QUICK_LINKS}`, { headers: { cookie }, redirect: "manual" })).status === 200;
  try {
    await page.goto(`${app.url}/admin`);
    await signInThroughForm(page, account.username, account.password);
    await expectToolsKept(page);
    const cookie = (await context.cookies(app.url)).map(({ name, value }) => `${name}=${value}`).join("; ");
    expect(await sessionTaken(cookie)).toBe(true);

    await cutSignal(context);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Logged out on this device" })).toBeVisible();
    // Nothing of the person is left to open without signal: every staff page says the same.
    await openOffline(page, `${app.url}/admin/quick-links/job-request`);
    await expect(page.getByRole("heading", { level: 1, name: "Logged out on this device" })).toBeVisible();
    expect(await sessionTaken(cookie)).toBe(true);

    await restoreSignal(context);
    await page.reload();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    expect(await sessionTaken(cookie)).toBe(false);
    await page.goto(`${app.url}${QUICK_LINKS}`);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  } finally {
    await app.stop();
  }
});
