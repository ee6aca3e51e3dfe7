import { createHmac } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { addStaffUser, cookieFrom, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { staffSessions } from "../app/services/db/schema.server";

/** Pages under /admin anyone may open: the sign-in page, the setup link (it checks its token) and log-out. */
const PUBLIC_ADMIN_PATHS = new Set(["/admin", "/admin/setup", "/admin/logout"]);

/** Every route path of the built app, with its parent's path in front. */
async function builtRoutePaths(): Promise<string[]> {
  const build: ServerBuild = await import(pathToFileURL(path.join(projectRoot, "build/server/index.js")).href);
  const fullPath = (id: string): string => {
    const route = build.routes[id];
    if (!route) return "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent;
  };
  return Object.keys(build.routes).map(fullPath);
}

let database: TestDatabase;
let app: AppServer;
let admin: Awaited<ReturnType<typeof addStaffUser>>;
let guardedPaths: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startAppServer({ env: { DATABASE_URL: database.url } });
  admin = await addStaffUser(database.db, "admin");
  guardedPaths = (await builtRoutePaths())
    .filter((routePath) => routePath.startsWith("/admin") && !PUBLIC_ADMIN_PATHS.has(routePath))
    .map((routePath) => routePath.replace(/:\w+/g, String(admin.id)));
});
afterAll(async () => {
  await app.stop();
  await database.drop();
});

const get = (url: string, cookie?: string) =>
  fetch(`${app.url}${url}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

/** Asserts the request got no page and no data: only a redirect to the sign-in page. */
async function expectNoAccess(url: string, cookie?: string) {
  const document = await get(url, cookie);
  expect(document.status, url).toBe(302);
  expect(document.headers.get("location"), url).toMatch(/^\/admin(\?redirectTo=|$)/);
  const body = await document.text();
  expect(body, url).not.toContain(admin.username);

  const dataResponse = await get(`${url}.data`, cookie);
  const payload = await dataResponse.text();
  expect(payload, `${url}.data`).toContain("SingleFetchRedirect");
  expect(payload, `${url}.data`).not.toContain(admin.username);
  expect(payload, `${url}.data`).not.toContain("Signed in as");
}

describe("the staff area", () => {
  it("covers every staff route of the build", () => {
    expect(guardedPaths).toEqual(
      expect.arrayContaining(["/admin/quick-links", "/admin/staff", `/admin/staff/${admin.id}`, "/admin/verify"]),
    );
  });

  it("gives no page and no data without a session, for every route and its .data request", async () => {
    for (const url of guardedPaths) await expectNoAccess(url);
  });

  it("remembers the page asked for in redirectTo", async () => {
    const response = await get("/admin/staff?tab=1");
    expect(response.headers.get("location")).toBe(`/admin?redirectTo=${encodeURIComponent("/admin/staff?tab=1")}`);
  });

  it("refuses a forged cookie, and one signed with another secret", async () => {
    const forgedToken = Buffer.from(JSON.stringify("made-up-session-token")).toString("base64");
    const foreignSignature = createHmac("sha256", "some other secret that is long enough!!")
      .update(forgedToken)
      .digest("base64")
      .replace(/=+$/, "");
    for (const cookie of [
      "__Host-staff_session=made-up",
      `__Host-staff_session=${forgedToken}`,
      `__Host-staff_session=${encodeURIComponent(`${forgedToken}.${foreignSignature}`)}`,
    ]) {
      for (const url of guardedPaths) await expectNoAccess(url, cookie);
    }
  });

  it("lets a signed-in user in, and not after logging out, even with the old cookie", async () => {
    const cookie = await signInOverHttp(app.url, admin.username, admin.password);
    const page = await get("/admin/quick-links", cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(admin.username);

    const logout = await fetch(`${app.url}/admin/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: app.url },
    });
    expect(logout.headers.get("location")).toBe("/admin");
    expect(logout.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    for (const url of guardedPaths) await expectNoAccess(url, cookie);
  });

  it("gives no access once a session has expired or sat idle too long", async () => {
    const expired = await signInOverHttp(app.url, admin.username, admin.password);
    const idle = await signInOverHttp(app.url, admin.username, admin.password);
    const sessions = await database.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.userId, admin.id))
      .orderBy(staffSessions.createdAt);
    const [older, newer] = sessions.slice(-2);
    if (!older || !newer) throw new Error("two sessions expected");
    await database.db
      .update(staffSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffSessions.tokenHash, older.tokenHash));
    await database.db
      .update(staffSessions)
      .set({ lastSeenAt: new Date(Date.now() - 9 * 3_600_000) })
      .where(eq(staffSessions.tokenHash, newer.tokenHash));
    await expectNoAccess("/admin/quick-links", expired);
    await expectNoAccess("/admin/quick-links", idle);
  });

  it("answers 403 to a staff user on an admin page, with no admin data and no link to it", async () => {
    const staff = await addStaffUser(database.db, "staff");
    const cookie = await signInOverHttp(app.url, staff.username, staff.password);
    const quickLinks = await get("/admin/quick-links", cookie);
    expect(quickLinks.status).toBe(200);
    const quickLinksHtml = await quickLinks.text();
    expect(quickLinksHtml).not.toContain('href="/admin/staff"');
    expect(quickLinksHtml).not.toContain('href="/admin/site"');
    for (const url of ["/admin/staff", `/admin/staff/${admin.id}`, "/admin/site/home"]) {
      const page = await get(url, cookie);
      expect(page.status, url).toBe(403);
      const html = await page.text();
      expect(html, url).toMatch(/<h1[^>]*>You don&#x27;t have access to this page<\/h1>/);
      expect(html, url).toContain("This page is for admins only. Ask an admin if you need it.");
      expect(html, url).not.toContain(admin.username);
      const dataResponse = await get(`${url}.data`, cookie);
      expect(dataResponse.status, url).toBe(403);
      expect(await dataResponse.text(), url).not.toContain(admin.username);
    }
    const post = await fetch(`${app.url}/admin/staff`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "require-second-factor", required: "on" }),
    });
    expect(post.status).toBe(403);
  });

  it("sets the session cookie __Host- prefixed, Secure, HttpOnly and SameSite=Lax in production", async () => {
    const response = await fetch(`${app.url}/admin`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: admin.username, password: admin.password }),
    });
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-staff_session=/);
    const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "secure", "samesite=lax"]));
    expect(attributes.some((attribute) => attribute.startsWith("domain="))).toBe(false);
    // A new session (a new cookie value) at every sign-in.
    expect(cookieFrom(setCookie)).not.toBe(await signInOverHttp(app.url, admin.username, admin.password));
  });
});

describe("requests from other sites", () => {
  const form = new URLSearchParams({ username: "someone", password: "something long" });

  it.each([
    ["/admin", { origin: "https://evil.example" }],
    ["/learnmore", { origin: "https://evil.example" }],
    ["/learnmore", { origin: "null" }],
    ["/admin/logout", { "sec-fetch-site": "cross-site" }],
    ["/learnmore", { "sec-fetch-site": "same-site" }],
  ])("are refused with 403: POST %s with %j", async (url, headers) => {
    const response = await fetch(`${app.url}${url}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: form,
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("This request came from another site and was refused.");
  });

  it("pass when they come from this site", async () => {
    const sameSite: Array<Record<string, string>> = [{ origin: app.url }, { "sec-fetch-site": "same-origin" }];
    for (const headers of sameSite) {
      const response = await fetch(`${app.url}/admin`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: form,
      });
      expect(response.status).toBe(401);
    }
  });
});

describe("oversized and undeclared bodies", () => {
  it("refuses a form body over 64 KB unread with 413", async () => {
    const response = await fetch(`${app.url}/learnmore`, {
      method: "POST",
      headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: `comments=${"x".repeat(70 * 1024)}`,
    });
    expect(response.status).toBe(413);
  });
});

describe("the lockout", () => {
  it("is shared by two app instances on one database", async () => {
    const second = await startAppServer({ env: { DATABASE_URL: database.url } });
    try {
      const user = await addStaffUser(database.db, "staff");
      const attempt = (base: string, password: string) =>
        fetch(`${base}/admin`, {
          method: "POST",
          redirect: "manual",
          headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ username: user.username, password }),
        });
      const statuses = [];
      for (const base of [app.url, second.url, app.url, second.url, app.url]) {
        statuses.push((await attempt(base, "not the right password")).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const locked = await attempt(second.url, user.password);
      expect(locked.status).toBe(429);
      expect(await locked.text()).toContain("Too many failed sign-in attempts");
    } finally {
      await second.stop();
    }
  });
});

describe("errors", () => {
  it("never carry a stack trace or internals", async () => {
    for (const url of ["/%E0%A4%A", "/admin/staff/%00.data", "/admin.data?_routes=%ZZ"]) {
      const response = await get(url);
      const body = await response.text();
      expect(response.status, url).toBeLessThan(500);
      // A malformed path gets the site's 404 page, whose hydration data holds React Router's own "Error: No
      // route matches URL" with the path asked for: that names no file, query or stack, so it is let through.
      expect(body, url).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Error:(?! No route matches URL)/);
    }
  });
});
