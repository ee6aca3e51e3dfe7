import type { CDPSession, Page } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { postEstimate } from "../support/estimate-post";
import { type PushService, startPushService } from "../support/push-service";
import { waitFor } from "../support/wait-for";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/** The staff app's service worker registration id, as the DevTools protocol names it, once it is active. */
async function activeRegistrationId(cdp: CDPSession, page: Page): Promise<string> {
  const registrations = new Map<string, string>();
  cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const version of versions) {
      if (version.status === "activated") registrations.set(version.registrationId, version.scriptURL);
    }
  });
  await cdp.send("ServiceWorker.enable");
  await expect
    .poll(
      () => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration("/admin/"))?.active)),
      { timeout: 30_000 },
    )
    .toBe(true);
  return waitFor("the worker's registration id", () => [...registrations.keys()][0], 10_000);
}

/** The notifications the staff app's worker shows now. */
const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration("/admin/");
    const shown = (await registration?.getNotifications()) ?? [];
    // `actions` is Chromium's, not yet in TypeScript's DOM types.
    type Shown = Notification & { actions: { action: string; title: string }[] };
    return (shown as Shown[]).map(({ title, body, actions, data }) => ({
      title,
      body,
      actions: actions.map(({ action, title: label }) => ({ action, title: label })),
      data,
    }));
  });

let app: AppServer;
let pushService: PushService;

test.beforeAll(async () => {
  pushService = await startPushService();
  // The loopback push service is the self-hosted kind an admin names: anything else on loopback is refused.
  app = await startAppServer({ env: { PUSH_SERVICE_ALLOWED_HOSTS: pushService.host } });
});
test.afterAll(async () => {
  await app?.stop();
  await pushService?.close();
});

test("a new estimate request is pushed to the device, shown with a call action, and opens the submission", async ({
  page,
  context,
  signInAsStaff,
}) => {
  // Sign-in, a failed subscribe, a service worker's start and a send through the outbox: slow on a loaded machine.
  test.setTimeout(120_000);
  await signInAsStaff("admin", "push", app);
  await context.grantPermissions(["notifications"], { origin: app.url });
  await page.goto(`${app.url}/admin/account`);
  await expect(page.getByRole("heading", { name: "Your settings" })).toBeVisible();

  // No push service is reachable from here: the browser's own subscribe fails, and the page says so.
  await page.getByRole("button", { name: "Turn on notifications on this device" }).click();
  await expect(page.getByRole("alert")).toContainText("push service did not answer", { timeout: 30_000 });

  // The device subscribes through the route the page posts to, with a subscription on the loopback push service.
  const subscription = await pushService.newSubscription();
  const subscribed = await page.request.post(`${app.url}/admin/account`, {
    headers: { origin: app.url },
    form: { intent: "push-subscribe", ...subscription, formType: "estimate" },
  });
  expect(subscribed.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: "Hears of" })).toContainText("Hears of: Estimate request.");
  await expectNoAxeViolations(page, "Your settings with a device");

  const cdp = await context.newCDPSession(page);
  const registrationId = await activeRegistrationId(cdp, page);

  const posted = await postEstimate(`${app.url}/learnmore`);
  expect(posted.reference).toMatch(/^EST-/);
  const push = await waitFor(
    "the push",
    () => pushService.received.find((one) => one.endpoint === subscription.endpoint),
    30_000,
  );
  expect(pushService.refused).toEqual([]);
  const submissionUrl = String(push.message.url);
  expect(submissionUrl).toMatch(/^\/admin\/inbox\/\d+$/);

  // The decrypted message, handed to the worker as the browser's push service would. DevTools drops a message
  // whose worker is slow to start on a loaded machine (CI, once); a push service delivers again, and the message's
  // tag (its reference) makes a second delivery replace the first notification rather than add one.
  const deliver = () =>
    cdp.send("ServiceWorker.deliverPushMessage", {
      origin: app.url,
      registrationId,
      data: JSON.stringify(push.message),
    });
  await deliver();
  await expect
    .poll(
      async () => {
        const shown = await shownNotifications(page);
        if (shown.length === 0) await deliver();
        return shown;
      },
      { timeout: 30_000, intervals: [10_000] },
    )
    .toEqual([
      {
        title: "New estimate request: Avery Placeholder, Sumter, commercial",
        body: `Prefers Phone call, Morning. Reference ${posted.reference}.`,
        actions: [{ action: "call", title: "Call (803) 555-0199" }],
        data: { url: submissionUrl, call: "(803) 555-0199" },
      },
    ]);

  // A tap on the notification: headless Chromium has no notification to click, so the worker is handed the event.
  const [worker] = context.serviceWorkers();
  expect(worker).toBeDefined();
  await worker?.evaluate(async () => {
    // The worker's own types (ServiceWorkerGlobalScope, NotificationEvent) are not in the tests' TypeScript lib.
    const scope = globalThis as unknown as {
      registration: { getNotifications(): Promise<unknown[]> };
      NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
    } & EventTarget;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification }));
  });
  await expect(page).toHaveURL(`${app.url}${submissionUrl}`, { timeout: 30_000 });
  await expect(page.getByText(`Estimate request ${posted.reference}`)).toBeVisible();
  await expect.poll(() => shownNotifications(page), { timeout: 30_000 }).toEqual([]);
});

test("turned on as the page opens, while the staff app is still being registered, it waits for it", async ({
  page,
  context,
  signInAsStaff,
}) => {
  test.setTimeout(120_000);
  await signInAsStaff("admin", "push-early", app);
  await context.grantPermissions(["notifications"], { origin: app.url });
  // The page registers the staff app once it has opened; its registration is held until the button is pressed.
  let releaseRegistration = () => {};
  const registrationHeld = new Promise<void>((resolve) => {
    releaseRegistration = resolve;
  });
  let registrationStarted = () => {};
  const registering = new Promise<void>((resolve) => {
    registrationStarted = resolve;
  });
  await page.route(/workbox-window[^/]*\.js$/, async (route) => {
    registrationStarted();
    await registrationHeld;
    await route.continue();
  });
  await page.goto(`${app.url}/admin/account`);
  await registering;
  await page.getByRole("button", { name: "Turn on notifications on this device" }).click();
  releaseRegistration();

  // Not "this browser cannot show notifications": it can, once registered. No push service is reachable from
  // here, so the browser's own subscribe is what fails.
  await expect(page.getByRole("alert")).toContainText("push service did not answer", { timeout: 30_000 });
});
