import type { BrowserContext, Route } from "@playwright/test";

/**
 * Takes the device's signal away: the browser reports itself offline, and no request of its pages or of the
 * staff app's service worker gets through. Chromium's offline emulation alone lapses for a moment when a
 * service worker starts in the page's process (the page gets an `online` event and its requests go through),
 * so the requests are also refused, as a dead connection refuses them.
 */
export async function cutSignal(context: BrowserContext) {
  await context.route("**/*", refuse);
  await context.setOffline(true);
}

export async function restoreSignal(context: BrowserContext) {
  await context.unroute("**/*", refuse);
  await context.setOffline(false);
}

const refuse = (route: Route) => route.abort("internetdisconnected");
