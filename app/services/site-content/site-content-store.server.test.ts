import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { defaultSiteContent, type SiteContent } from "~/content/site-content";
import { staffUsers } from "../db/schema.server";
import {
  listSiteVersions,
  loadSiteDraft,
  loadSiteVersion,
  publishedSiteContent,
  publishSiteDraft,
  republishSiteVersion,
  saveSiteDraft,
} from "./site-content-store.server";

let database: TestDatabase;
let robin: number;
let alex: number;

const withQuote = (quote: string): SiteContent => {
  const content = structuredClone(defaultSiteContent);
  content.home.testimonials = [{ ...content.home.testimonials[0], quote } as SiteContent["home"]["testimonials"][0]];
  return content;
};
const quoteOf = (content: SiteContent) => content.home.testimonials[0]?.quote;

beforeAll(async () => {
  database = await createTestDatabase();
  const admin = (username: string, displayName: string) =>
    database.db
      .insert(staffUsers)
      .values({ username, displayName, passwordHash: "unused", role: "admin" })
      .returning({ id: staffUsers.id });
  [robin, alex] = await Promise.all([admin("robin", "Robin Smith"), admin("alex", "Alex Jones")]).then((rows) =>
    rows.map((row) => row[0]?.id ?? 0),
  );
});

afterAll(() => database.drop());

describe("the site content store", () => {
  it("keeps drafts apart from what visitors see, refuses edits over another admin's publish, and keeps every version", async () => {
    const { db } = database;
    expect(await publishedSiteContent(db)).toEqual({ versionId: null, content: defaultSiteContent });
    expect(await loadSiteDraft(db)).toMatchObject({
      baseVersionId: null,
      updatedBy: null,
      content: defaultSiteContent,
    });

    expect(await saveSiteDraft(db, { content: withQuote("First."), baseVersionId: null, userId: robin })).toEqual({
      status: "saved",
    });
    expect(await loadSiteDraft(db)).toMatchObject({ baseVersionId: null, updatedBy: "Robin Smith" });
    expect(quoteOf((await publishedSiteContent(db)).content)).toBe(quoteOf(defaultSiteContent));

    const first = await publishSiteDraft(db, { userId: robin, baseVersionId: null });
    expect(first).toEqual({ status: "published", versionId: expect.any(Number) });
    const firstId = first.status === "published" ? first.versionId : 0;
    expect(await publishedSiteContent(db)).toMatchObject({ versionId: firstId });
    expect(quoteOf((await publishedSiteContent(db)).content)).toBe("First.");
    expect(await loadSiteDraft(db)).toMatchObject({ baseVersionId: firstId, updatedBy: null });

    // Alex starts from the first version; Robin publishes a second meanwhile.
    await saveSiteDraft(db, { content: withQuote("Second."), baseVersionId: firstId, userId: robin });
    const second = await publishSiteDraft(db, { userId: robin, baseVersionId: firstId });
    const secondId = second.status === "published" ? second.versionId : 0;
    const alexSaves = await saveSiteDraft(db, { content: withQuote("Alex's."), baseVersionId: firstId, userId: alex });
    expect(alexSaves).toEqual({
      status: "conflict",
      publishedVersionId: secondId,
      publishedBy: "Robin Smith",
      publishedAt: expect.any(Date),
    });
    expect(await publishSiteDraft(db, { userId: alex, baseVersionId: firstId })).toMatchObject({ status: "conflict" });
    expect(quoteOf((await publishedSiteContent(db)).content)).toBe("Second.");

    // A draft saved before a publish of an earlier version cannot be published over it either.
    await saveSiteDraft(db, { content: withQuote("Third."), baseVersionId: secondId, userId: alex });
    const again = await republishSiteVersion(db, { versionId: firstId, userId: alex });
    const againId = again.status === "published" ? again.versionId : 0;
    expect(quoteOf((await publishedSiteContent(db)).content)).toBe("First.");
    expect(await publishSiteDraft(db, { userId: robin, baseVersionId: againId })).toMatchObject({
      status: "conflict",
      publishedVersionId: againId,
      publishedBy: "Alex Jones",
    });

    expect(await listSiteVersions(db)).toEqual([
      {
        versionId: againId,
        publishedBy: "Alex Jones",
        republishedFromId: firstId,
        current: true,
        publishedAt: expect.any(Date),
      },
      {
        versionId: secondId,
        publishedBy: "Robin Smith",
        republishedFromId: null,
        current: false,
        publishedAt: expect.any(Date),
      },
      {
        versionId: firstId,
        publishedBy: "Robin Smith",
        republishedFromId: null,
        current: false,
        publishedAt: expect.any(Date),
      },
    ]);
    expect(quoteOf((await loadSiteVersion(db, secondId)) ?? defaultSiteContent)).toBe("Second.");
    expect(await republishSiteVersion(db, { versionId: 999_999, userId: robin })).toEqual({ status: "not-found" });
  });
});
