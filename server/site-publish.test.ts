import { mkdtemp, readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { cookieFrom } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { appDataParent } from "#tests/test-run-directory";
import { TEST_SESSION_SECRET } from "#tests/test-session-secret";
import { defaultSiteContent } from "../app/content/site-content";
import { startSession } from "../app/services/auth/sessions.server";
import { createStaffUser } from "../app/services/auth/staff-users.server";
import { loadConfig } from "../app/services/config.server";
import { staffUsers } from "../app/services/db/schema.server";
import {
  publishedSiteContent,
  publishSiteDraft,
  saveSiteDraft,
} from "../app/services/site-content/site-content-store.server";

/*
 * Two instances of the built app on one database and one DATA_DIR: a publish reaches the static pages of both
 * within seconds, with no rebuild. (The browser test, tests/e2e/phone-site-editor.spec.ts, runs them behind nginx
 * with a DATA_DIR each, as `npm run cluster` does.)
 */

let database: TestDatabase;
let instances: AppServer[];

beforeAll(async () => {
  database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(appDataParent(), "tce-shared-"));
  instances = await Promise.all([
    startAppServer({ dataDir, env: { DATABASE_URL: database.url } }),
    startAppServer({ dataDir, env: { DATABASE_URL: database.url } }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await database.drop();
});

const textOf = async (url: string) => {
  const answer = await fetch(url);
  return { status: answer.status, text: await answer.text(), policy: answer.headers.get("content-security-policy") };
};

/** Asks until `check` passes or `timeoutMs` ends; resolves with how long it took. */
// The goal is 10 s; the bench measures it (`npm run bench -- public-pages --after-edit` prints the time from
// publish to served). A test on a shared machine waits longer and logs what it took.
const PUBLISH_REACHES_INSTANCES_MS = 30_000;

async function within(timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

describe("publishing the site's content", () => {
  it("serves the new words on / and a service page of every instance within seconds, as static pages", async () => {
    const [first] = instances;
    const oldQuote = defaultSiteContent.home.testimonials[0]?.quote ?? "";
    for (const instance of instances) {
      expect((await textOf(`${instance.url}/`)).text).toContain(oldQuote.slice(0, 40));
    }

    const [admin] = await database.db
      .insert(staffUsers)
      .values({ username: "owner", displayName: "Pat Owner", passwordHash: "unused", role: "admin" })
      .returning({ id: staffUsers.id });
    const content = structuredClone(defaultSiteContent);
    content.home.testimonials = [
      { quote: "They lit our new gym in a week.", reviewer: "Lee Coach", organisation: "Athletics, Example High" },
    ];
    content.company.phone = "(803) 555-0177";
    content.company.name = "Palmetto Current LLC";
    content.company.shortName = "Palmetto Current";
    content.services.lighting.paragraphs = ["Every fixture we hang is tested after dark."];
    content.privacy.consentLine = "Sending this form lets us keep your answers to call you back, as our";
    content.privacy.sections[0] = {
      heading: "What we collect",
      paragraphs: ["Only your name, and only to call you back."],
    };
    await saveSiteDraft(database.db, { content, baseVersionId: null, userId: admin?.id ?? 0 });
    await publishSiteDraft(database.db, { userId: admin?.id ?? 0, baseVersionId: null });

    const tookMs = await within(PUBLISH_REACHES_INSTANCES_MS, async () => {
      const pages = await Promise.all(
        instances.flatMap((instance) => [textOf(`${instance.url}/`), textOf(`${instance.url}/lighting`)]),
      );
      return pages.every((page) => page.text.includes("(803) 555-0177"));
    });
    console.info(`publish served by both instances in ${tookMs} ms`);

    for (const instance of instances) {
      const home = await textOf(`${instance.url}/`);
      expect(home.text).toContain("They lit our new gym in a week.");
      expect(home.text).not.toContain(oldQuote.slice(0, 40));
      expect(home.text).toContain('href="tel:+18035550177"');
      expect(home.text).toContain('"telephone":"(803) 555-0177"');
      // The estimate form's messages made in the browser (offline, no answer) name the phone the page carries.
      expect(home.text).toContain('data-office-phone="(803) 555-0177"');
      // A static page's policy allows its inline scripts by hash, as the build's prerendered pages do.
      expect(home.policy).toMatch(/script-src 'self' 'sha256-/);
      const lighting = await textOf(`${instance.url}/lighting`);
      expect(lighting.text).toContain("Every fixture we hang is tested after dark.");
      // The estimate form's consent line, and the phone its messages made in the browser name.
      expect(lighting.text).toContain("Sending this form lets us keep your answers to call you back, as our");
      expect(lighting.text).toContain('data-office-phone="(803) 555-0177"');
      expect(lighting.text).not.toContain(defaultSiteContent.services.lighting.paragraphs[0]);
      expect((await textOf(`${instance.url}/lighting.data`)).text).toContain(
        "Every fixture we hang is tested after dark.",
      );
    }
    // Pages rendered per request read the published content too: the privacy notice's words and the facts in them.
    const privacy = (await textOf(`${first?.url}/privacy`)).text;
    expect(privacy).toContain("Only your name, and only to call you back.");
    expect(privacy).not.toContain(defaultSiteContent.privacy.sections[0]?.paragraphs[0]);
    expect(privacy).toContain(`write to ${defaultSiteContent.company.email} or call (803) 555-0177.`);

    // The staff tools name the company as published: the frame's short name and the pages' titles.
    const staff = await createStaffUser(database.db, {
      username: "frame-reader",
      password: "unused password of frame-reader",
      role: "staff",
    });
    const config = loadConfig({ NODE_ENV: "production", SESSION_SECRET: TEST_SESSION_SECRET });
    const cookie = cookieFrom(
      await startSession(database.db, config, { userId: staff.id, secondFactorPending: false }),
    );
    const quickLinks = await (await fetch(`${first?.url}/admin/quick-links`, { headers: { cookie } })).text();
    expect(quickLinks).toContain("<title>Quick Links | Palmetto Current LLC</title>");
    expect(quickLinks).toContain(">Palmetto Current</span>");
    expect(quickLinks).not.toContain(`>${defaultSiteContent.company.shortName}</span>`);
  }, 60_000);

  it("keeps the previous version's folder in the shared DATA_DIR, which a slower instance may be loading, and drops older ones", async () => {
    const [admin] = await database.db
      .insert(staffUsers)
      .values({ username: "second-owner", displayName: "Sam Owner", passwordHash: "unused", role: "admin" })
      .returning({ id: staffUsers.id });
    const userId = admin?.id ?? 0;
    let versionId = (await publishedSiteContent(database.db)).versionId;
    for (const phone of ["(803) 555-0178", "(803) 555-0179"]) {
      const content = structuredClone((await publishedSiteContent(database.db)).content);
      content.company.phone = phone;
      await saveSiteDraft(database.db, { content, baseVersionId: versionId, userId });
      const published = await publishSiteDraft(database.db, { userId, baseVersionId: versionId });
      if (published.status !== "published") throw new Error(`the publish was refused: ${published.status}`);
      versionId = published.versionId;
      await within(PUBLISH_REACHES_INSTANCES_MS, async () =>
        (await Promise.all(instances.map((instance) => textOf(`${instance.url}/`)))).every((page) =>
          page.text.includes(phone),
        ),
      );
    }
    const folders = await readdir(path.join(instances[0]?.dataDir ?? "", "site-pages"));
    expect(folders.map((folder) => Number(folder.split("-")[0])).sort((a, b) => a - b)).toEqual([
      (versionId ?? 0) - 1,
      versionId,
    ]);
  }, 60_000);
});
