import { readdir, readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { allRated, peerReviewFields } from "#tests/peer-review-fixture";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { inboxExports } from "~/services/db/schema.server";

let database: TestDatabase;
let app: AppServer;
let cookie: string;
let userId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startAppServer({ env: { DATABASE_URL: database.url } });
  const staff = await addStaffUser(database.db);
  userId = staff.id;
  cookie = await signInOverHttp(app.url, staff.username, staff.password);
}, 60_000);
afterAll(async () => {
  await app.stop();
  await database.drop();
});

/** The app's log lines as JSON, once everything logged so far has been written out. */
async function logLines(): Promise<Array<Record<string, unknown>>> {
  return (await app.flushedOutput()).flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe("the log of an anonymous peer review", () => {
  it("ties the review to no address and no person: its page, its post, its stored line and its PDF's download", async () => {
    const page = await fetch(`${app.url}/admin/quick-links/peer-review`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const posted = await fetch(`${app.url}/admin/quick-links/peer-review`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(peerReviewFields("Jordan Placeholder", allRated("4"))),
    });
    const answer = await posted.text();
    const reference = /PRV-[0-9A-Z]{6}/.exec(answer)?.[0];
    if (!reference) throw new Error(`no reference in the answer (${posted.status})`);
    const pdfPath = /\/admin\/inbox\/(\d+)\/files\/\d+\?grant=[^"&]+/.exec(answer.replaceAll("&amp;", "&"));
    if (!pdfPath) throw new Error("no PDF link in the answer");
    expect((await fetch(`${app.url}${pdfPath[0]}`, { headers: { cookie } })).status).toBe(200);

    const lines = await logLines();
    // The sign-in is logged with the address and the person, as before.
    expect(lines.find((line) => line.msg === "staff user signed in")).toMatchObject({
      userId,
      req: { remoteAddress: "127.0.0.1" },
    });
    const submissionId = pdfPath[1];
    const aboutTheReview = lines.filter((line) => {
      const text = JSON.stringify(line);
      return text.includes("peer-review") || text.includes(reference) || text.includes(`/admin/inbox/${submissionId}/`);
    });
    // The page's and the post's access-log lines, "submission stored", the download's two lines.
    expect(aboutTheReview.length).toBeGreaterThanOrEqual(5);
    expect(aboutTheReview.map((line) => line.msg)).toContain("submission stored");
    for (const line of aboutTheReview) {
      const text = JSON.stringify(line);
      expect(text).not.toContain("127.0.0.1");
      expect(text).not.toMatch(new RegExp(`"(userId|by|staffUserId)":${userId}\\b`));
    }
  }, 60_000);
});

describe("the log and the record of what staff typed into a URL", () => {
  it("keeps an export's search out of the log and its record, and a calendar token out of every path to the feed", async () => {
    const exported = await fetch(`${app.url}/admin/inbox/export.csv?q=secretname&status=New`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    await exported.text();
    const [record] = await database.db.select().from(inboxExports);
    expect(record?.query).toBe("?q&status");

    const token = "cd".repeat(32);
    const paths = [
      `//calendar/${token}.ics`,
      `/%63alendar/${token}.ics`,
      `/CALENDAR/${token}.ics`,
      `/admin/../calendar/${token}.ics`,
    ];
    for (const path of paths) await fetch(`${app.url}${path}`, { redirect: "manual" });

    const lines = await logLines();
    const text = JSON.stringify(lines);
    expect(text).not.toContain("secretname");
    expect(text).not.toContain(token);
    expect(lines.find((line) => line.msg === "inbox exported as CSV")).toMatchObject({ query: "?q&status" });
    const calendarUrls = lines
      .map((line) => (line.req as { url?: string } | undefined)?.url)
      .filter((url) => url?.startsWith("/calendar/"));
    expect(calendarUrls.length).toBeGreaterThanOrEqual(paths.length);
  }, 60_000);

  it("leaves the records of exports made before with their filters' names only", async () => {
    const [earlier] = await database.db
      .insert(inboxExports)
      .values({ username: "earlier", query: "?q=Nguyen%20Smith&status=New&delivery", leftOutTypes: [] })
      .returning();
    // Found by name: its number is whichever comes next when it is merged.
    const drizzle = new URL("../drizzle/", import.meta.url);
    const scrub = (await readdir(drizzle)).find((name) => name.endsWith("_scrub_inbox_export_queries.sql"));
    const migration = await readFile(new URL(String(scrub), drizzle), "utf8");
    await database.db.execute(sql.raw(migration));
    const [after] = await database.db
      .select()
      .from(inboxExports)
      .where(eq(inboxExports.id, earlier?.id ?? 0));
    expect(after?.query).toBe("?q&status&delivery");
  });
});
