import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { staffRequest, thrownStatus } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { defaultSiteContent } from "~/content/site-content";
import {
  listSiteVersions,
  loadSiteDraft,
  publishedSiteContent,
  saveSiteDraft,
} from "~/services/site-content/site-content-store.server";
import {
  loadSiteEditor,
  loadSiteHistory,
  loadSiteSection,
  type SiteEditorAnswer,
  siteEditorAction,
  siteHistoryAction,
  sitePhotoFile,
  siteSectionAction,
} from "./site-editor.server";
import { type ContentPath, fieldNameOf, isImageSlot, SITE_SECTIONS, sectionValues } from "./site-sections";

let database: TestDatabase;
let context: ReturnType<typeof loadContextFor>;
let ownerId: number;
let partnerId: number;
let staffId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  ownerId = (await addStaffUser(database.db, "admin")).id;
  partnerId = (await addStaffUser(database.db, "admin")).id;
  staffId = (await addStaffUser(database.db, "staff")).id;
});
afterAll(() => database.drop());

/** A section's values as its form posts them: the field names the screen gives each value. */
function postedForm(parts: readonly ContentPath[], values: unknown[], baseVersionId: number | null): FormData {
  const form = new FormData();
  form.set("baseVersionId", baseVersionId === null ? "" : String(baseVersionId));
  const add = (path: ContentPath, value: unknown) => {
    const name = fieldNameOf(path);
    if (path.at(-1) === "days" && Array.isArray(value)) for (const day of value) form.append(name, String(day));
    else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) add([...path, index], item);
    } else if (isImageSlot(value)) {
      form.set(`${name}.name`, value.name);
      form.set(`${name}.alt`, value.alt);
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) add([...path, key], inner);
    } else form.set(name, String(value));
  };
  for (const [index, part] of parts.entries()) add(part, values[index]);
  return form;
}

const valuesOf = (answer: SiteEditorAnswer) => answer.values ?? [];

const section = (id: string) => {
  const found = SITE_SECTIONS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(id);
  return found;
};

async function loadSection(userId: number, id: string) {
  await staffRequest(context, userId, `/admin/site/${id}`);
  return loadSiteSection(context, id);
}

async function postSection(
  userId: number,
  id: string,
  form: FormData,
): Promise<{ status: number; answer: SiteEditorAnswer }> {
  const request = await staffRequest(context, userId, `/admin/site/${id}`, { method: "POST", body: form });
  const result = await siteSectionAction(request, context, id);
  return { status: result.init?.status ?? 200, answer: result.data };
}

async function post(userId: number, path: string, fields: Record<string, string>, handler = siteEditorAction) {
  const request = await staffRequest(context, userId, path, { method: "POST", body: new URLSearchParams(fields) });
  const result = await handler(request, context);
  return { status: result.init?.status ?? 200, answer: result.data };
}

/** A 12-megapixel photo from a phone: 4000 by 3000, orange. */
async function twelveMegapixelJpeg(): Promise<File> {
  const bytes = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#e07b20" } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return new File([new Uint8Array(bytes)], "IMG_2041.JPG", { type: "image/jpeg" });
}

describe("the site editor", () => {
  it("saves an admin's draft with a new photo, and publishes it as a version with who and when", async () => {
    const home = await loadSection(ownerId, "home");
    const values = structuredClone(home.values) as [unknown, typeof defaultSiteContent.home, unknown];
    values[1].testimonials[0] = {
      quote: "They rewired our gym over spring break.",
      reviewer: "Pat Lee",
      organisation: "Principal",
    };
    const saved = await postSection(ownerId, "home", postedForm(section("home").parts, values, home.baseVersionId));
    expect(saved).toMatchObject({ status: 200, answer: { status: "success" } });

    const lighting = await loadSection(ownerId, "lighting");
    const form = postedForm(section("lighting").parts, lighting.values, lighting.baseVersionId);
    form.set("services.lighting.images.0.upload", await twelveMegapixelJpeg());
    form.set("services.lighting.images.0.alt", "A newly lit school hallway");
    const withPhoto = await postSection(ownerId, "lighting", form);
    expect(withPhoto.answer).toMatchObject({ status: "success" });

    const draft = await loadSiteDraft(database.db);
    expect(draft.content.home.testimonials[0]?.quote).toBe("They rewired our gym over spring break.");
    const photo = draft.content.services.lighting.images[0];
    expect(photo).toMatchObject({ alt: "A newly lit school hallway", width: 960, height: 720 });
    expect(photo?.name).toMatch(/^site-[0-9a-f]{12}$/);
    // The editor shows the photo before it is published.
    await staffRequest(context, ownerId, `/admin/site/photos/${photo?.name}-320.jpg`);
    const shown = await sitePhotoFile(context, `${photo?.name}-320.jpg`);
    expect(shown.headers.get("content-type")).toBe("image/jpeg");
    expect(await sharp(Buffer.from(await shown.arrayBuffer())).metadata()).toMatchObject({ width: 320, height: 240 });

    const editor = await staffRequest(context, ownerId, "/admin/site").then(() => loadSiteEditor(context));
    const published = await post(ownerId, "/admin/site", {
      intent: "publish",
      baseVersionId: String(editor.baseVersionId ?? ""),
    });
    expect(published).toEqual({
      status: 200,
      answer: { status: "success", message: "Published. Visitors see it within seconds." },
    });
    const visible = await publishedSiteContent(database.db);
    expect(visible.content.home.testimonials[0]?.reviewer).toBe("Pat Lee");
    expect(visible.content.services.lighting.images[0]?.name).toBe(photo?.name);
    const [version] = (await staffRequest(context, ownerId, "/admin/site/history").then(() => loadSiteHistory(context)))
      .versions;
    expect(version).toMatchObject({ current: true, publishedBy: expect.stringMatching(/^admin-/) });
  });

  it("gives back everything typed, each error by its field, and saves nothing on a bad input", async () => {
    const before = await loadSiteDraft(database.db);
    const company = await loadSection(ownerId, "company");
    const values = structuredClone(company.values) as [typeof defaultSiteContent.company, unknown];
    values[0].phone = "call us";
    values[0].tagline = "";
    values[0].name = "Example Electric & Sons";
    const refused = await postSection(
      ownerId,
      "company",
      postedForm(section("company").parts, values, company.baseVersionId),
    );
    expect(refused.status).toBe(400);
    expect(refused.answer.errors).toMatchObject({
      "company.phone": "Enter a phone number such as (803) 555-0142",
      "company.tagline": "required",
    });
    expect((valuesOf(refused.answer)[0] as (typeof values)[0]).name).toBe("Example Electric & Sons");
    expect((await loadSiteDraft(database.db)).updatedAt).toEqual(before.updatedAt);
  });

  it("adds, moves and removes list items within the schema's counts, saved with the next Save draft", async () => {
    const home = await loadSection(ownerId, "home");
    const form = postedForm(section("home").parts, home.values, home.baseVersionId);
    form.set("intent", "add:home.testimonials");
    const added = await postSection(ownerId, "home", form);
    const testimonials = (valuesOf(added.answer)[1] as typeof defaultSiteContent.home).testimonials;
    expect(testimonials).toHaveLength(2);
    expect(testimonials[1]).toEqual({ quote: "", reviewer: "", organisation: "" });

    const pairs = postedForm(section("home").parts, home.values, home.baseVersionId);
    pairs.set("intent", "down:home.beforeAfterPairs.0");
    const moved = await postSection(ownerId, "home", pairs);
    const movedPairs = (valuesOf(moved.answer)[1] as typeof defaultSiteContent.home).beforeAfterPairs;
    expect(movedPairs.map((pair) => pair.id)).toEqual(
      [...defaultSiteContent.home.beforeAfterPairs].reverse().map((pair) => pair.id),
    );

    const values = structuredClone(home.values) as [unknown, typeof defaultSiteContent.home, unknown];
    values[1].beforeAfterPairs = values[1].beforeAfterPairs.slice(0, 1);
    const tooFew = await postSection(ownerId, "home", postedForm(section("home").parts, values, home.baseVersionId));
    expect(tooFew.status).toBe(400);
    expect(tooFew.answer.errors?.["home.beforeAfterPairs"]).toBe("Add at least 2 before and after pairs");
  });

  it("never overwrites another admin's publish silently: it says who published and when", async () => {
    const mine = await loadSection(ownerId, "menu");
    // Meanwhile the partner publishes the phone number they fixed.
    const draft = await loadSiteDraft(database.db);
    const fixed = { ...draft.content, company: { ...draft.content.company, phone: "(803) 555-0199" } };
    expect(
      await saveSiteDraft(database.db, { content: fixed, baseVersionId: draft.baseVersionId, userId: partnerId }),
    ).toEqual({
      status: "saved",
    });
    expect(
      (await post(partnerId, "/admin/site", { intent: "publish", baseVersionId: String(draft.baseVersionId) })).status,
    ).toBe(200);

    const values = structuredClone(mine.values) as [typeof defaultSiteContent.menu];
    values[0].main.about = "Who we are";
    const refused = await postSection(ownerId, "menu", postedForm(section("menu").parts, values, mine.baseVersionId));
    expect(refused.status).toBe(409);
    expect(refused.answer.message).toMatch(
      /^admin-\S+ published the site at .+, after you started these changes\. Nothing was overwritten/,
    );
    expect((valuesOf(refused.answer)[0] as (typeof values)[0]).main.about).toBe("Who we are");
    expect((await publishedSiteContent(database.db)).content.company.phone).toBe("(803) 555-0199");

    const over = postedForm(section("menu").parts, values, mine.baseVersionId);
    over.set("intent", `save-over:${refused.answer.conflict?.publishedVersionId}`);
    expect((await postSection(ownerId, "menu", over)).answer.status).toBe("success");
    const saved = await loadSiteDraft(database.db);
    expect(saved.content.menu.main.about).toBe("Who we are");
    expect(saved.content.company.phone).toBe("(803) 555-0199");
  });

  it("publishes an earlier version again in one step, bringing its words back", async () => {
    const versions = await listSiteVersions(database.db);
    const first = versions.at(-1);
    expect(first?.versionId).toBeDefined();
    const again = await post(
      ownerId,
      "/admin/site/history",
      { intent: "republish", versionId: String(first?.versionId) },
      siteHistoryAction,
    );
    expect(again.answer).toMatchObject({ status: "success" });
    const visible = await publishedSiteContent(database.db);
    expect(visible.content.home.testimonials[0]?.reviewer).toBe("Pat Lee");
    expect(visible.content.company.phone).toBe(defaultSiteContent.company.phone);
  });

  it("is for admins only: a staff member gets the not-allowed answer everywhere", async () => {
    const asStaff = (path: string) => staffRequest(context, staffId, path);
    await asStaff("/admin/site");
    expect(await thrownStatus(loadSiteEditor(context))).toBe(403);
    expect(await thrownStatus(loadSiteSection(context, "home"))).toBe(403);
    expect(await thrownStatus(loadSiteHistory(context))).toBe(403);
    expect(await thrownStatus(sitePhotoFile(context, "site-000000000000-320.jpg"))).toBe(403);
    const form = postedForm(section("home").parts, sectionValues(section("home"), defaultSiteContent), null);
    const request = await staffRequest(context, staffId, "/admin/site/home", { method: "POST", body: form });
    expect(await thrownStatus(siteSectionAction(request, context, "home"))).toBe(403);
    const publish = await staffRequest(context, staffId, "/admin/site", {
      method: "POST",
      body: new URLSearchParams({ intent: "publish" }),
    });
    expect(await thrownStatus(siteEditorAction(publish, context))).toBe(403);
  });
});
