import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { estimatePayload, insertInboxSubmission, storeApplication } from "#tests/inbox-fixture";
import { signedInAppForFile } from "#tests/signed-in-app";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { KEEPABLE_PAGE_HEADER, KEPT_PAGE_HEADER } from "~/components/staff/kept-page";
import { submissionFiles } from "~/services/db/schema.server";

const state = signedInAppForFile();
let adminCookie: string;
let submissionId: number;
let fileDownload: string;

beforeAll(async () => {
  const { database, app } = state;
  const admin = await addStaffUser(database.db, "admin");
  adminCookie = await signInOverHttp(app.url, admin.username, admin.password);
  submissionId = (await insertInboxSubmission(database.db, { payload: estimatePayload() })).id;
  const application = await storeApplication(database.db);
  const [file] = await database.db
    .select()
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, application.id));
  fileDownload = `/admin/inbox/${application.id}/files/${file?.id}`;
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${state.app.url}${path}`, { redirect: "manual", headers });

describe("staff answers over HTTP", () => {
  it("tell the browser to store none of them: pages, their data, downloads, errors and redirects", async () => {
    const answers: [string, string | undefined, number][] = [
      ["/admin", undefined, 200],
      ["/admin/quick-links", state.cookie, 200],
      ["/admin/quick-links.data", state.cookie, 200],
      ["/admin/quick-links/job-request", state.cookie, 200],
      ["/admin/quick-links/job-request.data", state.cookie, 200],
      ["/admin/inbox", state.cookie, 200],
      ["/admin/inbox.data", state.cookie, 200],
      [`/admin/inbox/${submissionId}`, state.cookie, 200],
      ["/admin/inbox/export.csv", state.cookie, 200],
      ["/admin/quick-links/team-communication/history", state.cookie, 200],
      ["/admin/account", state.cookie, 200],
      ["/admin/staff", adminCookie, 200],
      [fileDownload, adminCookie, 200],
      // Fewer reviews than the report's minimum: its refusal.
      ["/admin/peer-review-report/pdf", adminCookie, 404],
      ["/admin/staff", state.cookie, 403],
      ["/admin/no-such-screen", state.cookie, 404],
      ["/admin/inbox", undefined, 302],
    ];
    for (const [path, as, status] of answers) {
      const response = await get(path, as ? { cookie: as } : {});
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
      expect(response.headers.get("cache-control"), path).toMatch(/\bno-store\b/);
    }
  });

  it("mark as keepable by the staff app only the answers whose route does not hold a customer's details", async () => {
    const keptQuickLinks = await get("/admin/quick-links", { cookie: state.cookie, [KEPT_PAGE_HEADER]: "1" });
    expect(keptQuickLinks.headers.get(KEEPABLE_PAGE_HEADER)).toBe("yes");
    const tool = await get("/admin/quick-links/job-request", { cookie: state.cookie });
    expect(tool.headers.get(KEEPABLE_PAGE_HEADER)).toBe("yes");
    for (const path of ["/admin/quick-links", "/admin/inbox/export.csv", fileDownload]) {
      const response = await get(path, { cookie: adminCookie });
      await response.arrayBuffer();
      expect(response.headers.get(KEEPABLE_PAGE_HEADER), path).toBeNull();
    }
  });

  it("answer 503 and never the page when the session cannot be checked", async () => {
    await state.database.setReachable(false);
    try {
      for (const path of ["/admin/quick-links", "/admin/quick-links/team-communication/history", "/admin/inbox.data"]) {
        const response = await get(path, { cookie: state.cookie });
        const body = await response.text();
        expect(response.status, path).toBe(503);
        expect(response.headers.get("cache-control"), path).toMatch(/\bno-store\b/);
        expect(body, path).not.toContain("Message history");
        expect(body, path).not.toContain("Log out");
      }
      const page = await (await get("/admin/quick-links", { cookie: state.cookie })).text();
      expect(page).toContain("Please try again in a moment");
      // A form's post is not read: the checklist's script gets a failed answer it shows, to send again.
      const post = await fetch(`${state.app.url}/admin/quick-links/estimate-checklist/submit`, {
        method: "POST",
        headers: { cookie: state.cookie, origin: state.app.url, "content-type": "multipart/form-data; boundary=x" },
        body: "--x--\r\n",
      });
      expect(post.status).toBe(503);
      expect(await post.json()).toMatchObject({
        status: "error",
        retry: true,
        message: expect.stringMatching(/try again/),
      });
    } finally {
      await state.database.setReachable(true);
    }
  });
});
