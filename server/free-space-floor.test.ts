import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { smallPdf, validApplication } from "#tests/application-fixture";
import { validEstimate } from "#tests/estimate-fixture";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { DEFAULT_FORM_MESSAGES } from "~/forms/messages";
import { submissionFiles, submissions } from "~/services/db/schema.server";

let database: TestDatabase;
let app: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  // More than this machine's disk has free: every file would cross the floor.
  app = await startAppServer({ env: { DATABASE_URL: database.url, UPLOAD_FREE_SPACE_FLOOR: "1000TB" } });
}, 60_000);
afterAll(async () => {
  await app.stop();
  await database.drop();
});

/** The page's HTML as a browser shows it: attribute values with their entities read. */
const shown = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

describe("the free-space floor, on a disk without room for files", () => {
  it("refuses a public job application's resume with why, keeping every answer, and stores nothing", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(validApplication)) form.append(name, value);
    form.append("resume", new Blob([new Uint8Array(smallPdf())], { type: "application/pdf" }), "jordan resume.pdf");
    const response = await fetch(`${app.url}/apply`, { method: "POST", headers: { origin: app.url }, body: form });

    expect(response.status).toBe(507);
    const page = shown(await response.text());
    expect(page).toContain(DEFAULT_FORM_MESSAGES.noRoomForFiles);
    expect(page).toContain(`value="${validApplication.address}"`);
    expect(page).toContain(`value="${validApplication.email}"`);
    expect(await database.db.$count(submissions, eq(submissions.type, "application"))).toBe(0);
    expect(await database.db.$count(submissionFiles)).toBe(0);
  });

  it("still stores a lead's answers, which carry no file", async () => {
    const response = await fetch(`${app.url}/lighting`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams(validEstimate),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/Your reference number is <strong[^>]*>EST-[0-9A-Z]{6}</);
    expect(await database.db.$count(submissions, eq(submissions.type, "estimate"))).toBe(1);
  });
});
