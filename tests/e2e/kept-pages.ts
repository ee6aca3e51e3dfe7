import type { Page } from "@playwright/test";

/** The caches of the staff pages the service worker keeps, by name, with the paths each holds. */
export const staffPageCaches = (page: Page) =>
  page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith("staff-pages-"));
    return Promise.all(
      names.map(async (name) => ({
        name,
        paths: (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname).sort(),
      })),
    );
  });
