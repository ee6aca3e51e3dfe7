import type { Page } from "@playwright/test";

/** Holds the page's scripts on their way from the server, as a slow phone does; answers the way to let them go. */
export async function holdScripts(page: Page): Promise<() => void> {
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  return releaseScripts;
}
