/*
 * The staff app keeps Quick Links and the tools' pages on the device (decision 0904), and never a customer's
 * contact details. The service worker asks for the copy it keeps with KEPT_PAGE_HEADER, and the page leaves out
 * what must not be kept. Every staff answer says `Cache-Control: no-store` to the browser's own cache (Back after
 * Log out shows nothing); the server marks with KEEPABLE_PAGE_HEADER the answers whose route did not say no-store
 * itself (one with a customer's details does), and the worker keeps only those (scripts/staff-app/service-worker.mjs).
 * Kept pages show who was signed in and the tools' lists of people, so they belong to one session: the cache is
 * named by the build and an opaque id of the session the staff pages give the worker, and goes as the session does.
 */

/** Sent by the service worker when it fetches a page to keep. */
export const KEPT_PAGE_HEADER = "Staff-App-Kept-Page";

/** Set by the server on a staff answer the staff app may keep on the device. */
export const KEEPABLE_PAGE_HEADER = "Staff-App-Keepable";

/** Whether a response may be kept on the device. */
export const mayBeKept = (response: Response) => response.headers.get(KEEPABLE_PAGE_HEADER) === "yes";

/** Every cache of kept pages starts so: `staff-pages-<build>-for-<session's id>`. */
export const KEPT_PAGES_CACHE_PREFIX = "staff-pages-";

/**
 * Drops the kept pages of every session but `keep`'s: at Log out, on the sign-in screens (the session ended, by
 * time-out, an admin or a password reset), and when the worker is told of another session (another person).
 */
export async function dropKeptPages(keep?: string): Promise<void> {
  if (!("caches" in globalThis)) return;
  const names = await caches.keys();
  const dropped = names.filter((name) => name.startsWith(KEPT_PAGES_CACHE_PREFIX) && name !== keep);
  await Promise.all(dropped.map((name) => caches.delete(name)));
}
