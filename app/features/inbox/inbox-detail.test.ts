import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { storeApplication, storeEstimate } from "#tests/inbox-fixture";
import { signedInAppForFile } from "#tests/signed-in-app";
import { submissionFiles } from "~/services/db/schema.server";

const SCRIPT = "<script>alert(1)</script>";
const ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;";

const world = signedInAppForFile();

const get = (url: string, withCookie = true) =>
  fetch(`${world.app.url}${url}`, { redirect: "manual", headers: withCookie ? { cookie: world.cookie } : {} });

describe("the detail page", () => {
  it("shows a stored <script> in every field and in a note as text, never as markup", async () => {
    const payload = {
      firstName: SCRIPT,
      lastName: SCRIPT,
      email: SCRIPT,
      phone: SCRIPT,
      city: SCRIPT,
      projectType: SCRIPT,
      formOfContact: SCRIPT,
      bestTime: SCRIPT,
      comments: SCRIPT,
    };
    const { id } = await storeEstimate(world.database.db, { payload });
    const note = await fetch(`${world.app.url}/admin/inbox/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: world.cookie, origin: world.app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "triage", note: SCRIPT }),
    });
    expect(note.status).toBe(200);

    const page = await get(`/admin/inbox/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Nine fields, the note, and no raw tag anywhere: not in the markup, not in the data for hydration.
    expect(html.split(ESCAPED_SCRIPT).length - 1).toBeGreaterThanOrEqual(10);
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain("<script>alert");
  });

  it("answers 404 for a submission that does not exist", async () => {
    expect((await get("/admin/inbox/987654321")).status).toBe(404);
    expect((await get("/admin/inbox/not-a-number")).status).toBe(404);
  });
});

describe("the file route", () => {
  it("gives a signed-in user the file as an attachment, and no file without a session", async () => {
    const { id } = await storeApplication(world.database.db);
    const [file] = await world.database.db.select().from(submissionFiles).where(eq(submissionFiles.submissionId, id));
    if (!file) throw new Error("no file stored");
    const url = `/admin/inbox/${id}/files/${file.id}`;

    const signedIn = await get(url);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("content-disposition")).toMatch(/^attachment; filename="/);
    expect(signedIn.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await signedIn.arrayBuffer()).equals(file.content)).toBe(true);

    for (const path of [url, `${url}.data`]) {
      const anonymous = await get(path, false);
      expect(anonymous.status, path).not.toBe(200);
      expect(anonymous.headers.get("content-disposition"), path).toBeNull();
      const body = Buffer.from(await anonymous.arrayBuffer());
      expect(body.includes(Buffer.from("%PDF")), path).toBe(false);
    }
  });
});
