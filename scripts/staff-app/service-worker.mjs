// The staff area's service worker (scope /admin/), bundled by scripts/staff-app/build-staff-app.mjs. Decision 0904.
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import {
  dropKeptPages,
  KEPT_PAGE_HEADER,
  KEPT_PAGES_CACHE_PREFIX,
  mayBeKept,
} from "../../app/components/staff/kept-page.ts";
import { SEND_PENDING_LOGOUT, sendPendingLogout } from "../../app/components/staff/pending-logout.ts";
import { SEND_WAITING_FORMS } from "../../app/forms/background-sync.ts";

/**
 * The pages of the staff tools, kept per build (a new build's worker starts from none of the old ones) and per
 * session: `<this>-<the session's opaque id>`, which the staff pages give (kept-page.ts).
 */
const PAGES_CACHE_OF_BUILD = `${KEPT_PAGES_CACHE_PREFIX}${STAFF_APP_VERSION}-for-`;
const SESSION_ID = /^[0-9a-f]{32}$/;

/** The cache of the session whose pages are kept, if any: the sign-in screens and Log out leave none. */
async function keptPagesCache() {
  const names = await caches.keys();
  return names.filter((name) => name.startsWith(PAGES_CACHE_OF_BUILD)).pop();
}

// The build's scripts, stylesheets and fonts, by revision; a new build's worker drops what it no longer lists.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * A tool's page is kept only once the page asked for it (`cache-tool-pages`) and only as a signed-in answer the
 * server marked keepable: a redirect to sign in, an error, a page whose route said no-store (one with a customer's
 * contact details) or any other staff page (the inbox, the staff list, a submission) is never kept.
 */
const keptToolPage = (cacheName) => ({
  async cacheWillUpdate({ request, response }) {
    if (response.status !== 200 || response.redirected || !mayBeKept(response)) return null;
    // Not opened again once dropped: a sign-in screen may have dropped it while this page was on its way.
    if (!(await caches.has(cacheName))) return null;
    const cache = await caches.open(cacheName);
    return (await cache.match(request)) ? response : null;
  },
});

/** What a staff page shows after logging out without signal, until the server has ended the session. */
function loggedOutOnThisDevice() {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Logged out</title></head>
<body><main><h1>Logged out on this device</h1>
<p>Your forms, drafts and kept pages are gone from this device. Your session ends on the server as soon as the
signal returns.</p><p><a href="/admin">Sign in</a></p></main></body></html>`;
  return new Response(page, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'" },
  });
}

// A tool's page opened to change a waiting form (`?change=<key>`) is the same kept page.
const keptStaffPages = (cacheName) =>
  new NetworkFirst({ cacheName, plugins: [keptToolPage(cacheName)], matchOptions: { ignoreSearch: true } });

// Online, every staff page comes from the server; without signal a tool's page comes from its kept copy. A
// logout kept without signal goes first: no staff page is answered until the server has ended that session.
registerRoute(
  new NavigationRoute(
    {
      async handle(options) {
        const logout = await sendPendingLogout();
        if (logout === "kept") return loggedOutOnThisDevice();
        if (logout === "sent") return Response.redirect("/admin", 303);
        const cacheName = await keptPagesCache();
        return cacheName ? keptStaffPages(cacheName).handle(options) : fetch(options.request);
      },
    },
    { allowlist: [/^\/admin\//] },
  ),
);

/**
 * One page after the other, and only those not kept yet: the server renders each, and the person is using it.
 * Another session's pages (another person's, or the same person's before a sign-in) go first.
 */
async function cacheToolPages(cacheName, paths) {
  await dropKeptPages(cacheName);
  const cache = await caches.open(cacheName);
  for (const path of paths) {
    if (await cache.match(path)) continue;
    // Not followed: a session that ended answers with a redirect to sign in, which is not the tool.
    const response = await fetch(path, {
      credentials: "same-origin",
      redirect: "manual",
      headers: { [KEPT_PAGE_HEADER]: "1" },
    }).catch(() => undefined);
    if (response?.status === 200 && mayBeKept(response)) await cache.put(path, response);
  }
  // A session that ended while its pages were asked for (the server answered each with a redirect) leaves no cache.
  if ((await cache.keys()).length === 0) await caches.delete(cacheName);
}

self.addEventListener("message", (event) => {
  const { type, owner, paths } = event.data ?? {};
  if (type === "cache-tool-pages" && SESSION_ID.test(owner) && Array.isArray(paths)) {
    const toolPaths = paths.filter((path) => typeof path === "string");
    event.waitUntil(cacheToolPages(`${PAGES_CACHE_OF_BUILD}${owner}`, toolPaths));
  }
  if (type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(KEPT_PAGES_CACHE_PREFIX) && !name.startsWith(PAGES_CACHE_OF_BUILD))
            .map((name) => caches.delete(name)),
        ),
      ),
  );
});

// Background Sync: the pages send what waits; the worker only wakes them when the signal is back. A kept logout
// the worker sends itself; while the server is out of reach the sync fails, and the browser tries it again.
self.addEventListener("sync", (event) => {
  if (event.tag === SEND_PENDING_LOGOUT) {
    event.waitUntil(
      sendPendingLogout().then((logout) => {
        if (logout === "kept") throw new Error("the server is still out of reach");
      }),
    );
    return;
  }
  if (event.tag !== SEND_WAITING_FORMS) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) => {
      for (const window of windows) window.postMessage({ type: SEND_WAITING_FORMS });
    }),
  );
});

// A new submission's push (app/outbox/push-sender.server.ts): its title, a line, and the caller's number to ring.
self.addEventListener("push", (event) => {
  const message = event.data?.json() ?? {};
  const actions = message.call ? [{ action: "call", title: `Call ${message.call}` }] : [];
  event.waitUntil(
    self.registration.showNotification(message.title ?? "New submission", {
      body: message.body ?? "",
      tag: message.tag,
      icon: "/admin/icons/staff-192.png",
      data: { url: message.url ?? "/admin/inbox", call: message.call },
      actions,
    }),
  );
});

/** Opens a staff page: in a staff window already open (brought to the front), else in a new one. */
async function openStaffPage(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((window) => new URL(window.url).pathname.startsWith("/admin"));
  if (open) {
    const navigated = await open.navigate(url).catch(() => null);
    if (navigated) return navigated.focus();
  }
  return self.clients.openWindow(url);
}

// Tapping opens the submission in the inbox (the staff guard asks to sign in first, and comes back to it); the
// Call action dials the number, or opens the submission where the phone cannot dial from here.
self.addEventListener("notificationclick", (event) => {
  const { url, call } = event.notification.data ?? {};
  event.notification.close();
  const opened =
    event.action === "call" && call
      ? self.clients.openWindow(`tel:${call}`).catch(() => openStaffPage(url))
      : openStaffPage(url ?? "/admin/inbox");
  event.waitUntil(opened);
});

clientsClaim();
