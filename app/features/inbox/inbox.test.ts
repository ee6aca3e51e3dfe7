import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { parseCsv } from "#tests/csv-parser";
import { estimatePayload, insertInboxSubmission } from "#tests/inbox-fixture";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { KEEPABLE_PAGE_HEADER, KEPT_PAGE_HEADER } from "~/components/staff/kept-page";

const SCRIPT = "<script>alert(1)</script>";

let database: TestDatabase;
let app: AppServer;
let cookie: string;
let adminCookie: string;
let reference: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startAppServer({ env: { DATABASE_URL: database.url } });
  const user = await addStaffUser(database.db);
  cookie = await signInOverHttp(app.url, user.username, user.password);
  const admin = await addStaffUser(database.db, "admin");
  adminCookie = await signInOverHttp(app.url, admin.username, admin.password);
  const stored = await insertInboxSubmission(database.db, {
    payload: estimatePayload({ firstName: SCRIPT, lastName: "Hacker", email: `x${SCRIPT}@example.com` }),
    deliveryStatuses: ["failed"],
  });
  reference = stored.reference;
});
afterAll(async () => {
  await app.stop();
  await database.drop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { redirect: "manual", headers });

describe("the inbox over HTTP", () => {
  it("lists a stored <script> name as text, escaped, never as markup", async () => {
    const response = await get("/admin/inbox", { cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(reference);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Hacker");
    expect(html).not.toContain(SCRIPT);
  });

  it("answers a bad filter with 400 and the message in the page", async () => {
    const response = await get("/admin/inbox?from=2025-13-01", { cookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The from date is not a day of the calendar");
  });

  it("gives the CSV only to signed-in staff, with the <script> as literal text", async () => {
    for (const path of ["/admin/inbox/export.csv", "/admin/inbox/export.csv?delivery=failed"]) {
      const refused = await get(path);
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("location"), path).toMatch(/^\/admin\?redirectTo=/);
      const body = await refused.text();
      expect(body, path).not.toContain(reference);
    }

    const response = await get("/admin/inbox/export.csv?delivery=failed", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="inbox-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, row] = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
    expect(row?.[0]).toBe(reference);
    expect(row?.[header?.indexOf("First name") ?? -1]).toBe(SCRIPT);
    expect(row?.[header?.indexOf("Delivery state") ?? -1]).toBe("Failed");
  });

  it("shows the failed-delivery alert on an admin's dashboard, linking to the filtered inbox, and not on a staff user's", async () => {
    const html = await (await get("/admin/quick-links", { cookie: adminCookie })).text();
    expect(html).toContain("Failed deliveries: 1 webhook.");
    expect(html).toContain('href="/admin/inbox?delivery=failed"');
    const staffPage = await (await get("/admin/quick-links", { cookie })).text();
    expect(staffPage).not.toContain("Failed deliveries:");
    expect(staffPage).not.toContain("acknowledge-failures");
    const seen = /name="seen" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const staffPost = await fetch(`${app.url}/admin/quick-links`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "acknowledge-failures", seen }),
    });
    expect(staffPost.status).toBe(403);
  });

  it("gives the lead waiting on a staff user, with its phone, but never to the copy the staff app keeps on the device", async () => {
    const page = await get("/admin/quick-links", { cookie });
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get(KEEPABLE_PAGE_HEADER)).toBeNull();
    expect(await page.text()).toContain('href="tel:+18035550199"');
    const kept = await get("/admin/quick-links", { cookie, [KEPT_PAGE_HEADER]: "1" });
    expect(kept.status).toBe(200);
    expect(kept.headers.get(KEEPABLE_PAGE_HEADER)).toBe("yes");
    const keptHtml = await kept.text();
    expect(keptHtml).toContain("Visit Link: Inbox");
    expect(keptHtml).not.toContain("555-0199");
    expect(keptHtml).not.toContain(reference);
  });

  it("acknowledges the failed-delivery alert with a plain form post, as a browser without JavaScript sends it", async () => {
    const dashboard = await (await get("/admin/quick-links", { cookie: adminCookie })).text();
    expect(dashboard).toMatch(
      /<form [^>]*action="\/admin\/quick-links" method="post"><input type="hidden" name="intent" value="acknowledge-failures"\/><input type="hidden" name="seen" value="[^"]+"\/><button type="submit"[^>]*>Acknowledge<\/button><\/form>/,
    );
    const seen = /name="seen" value="([^"]+)"/.exec(dashboard)?.[1];
    if (!seen) throw new Error("the alert has no Acknowledge form");

    const response = await fetch(`${app.url}/admin/quick-links`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: adminCookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "acknowledge-failures", seen }),
    });
    expect(response.status).toBe(200);
    const answer = await response.text();
    expect(answer).toContain("Acknowledged: these failures no longer raise the alert. A new one will.");
    expect(answer).not.toContain("Failed deliveries:");
    expect(await (await get("/admin/quick-links", { cookie: adminCookie })).text()).not.toContain("Failed deliveries:");
  });
});
