import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heicPhoto, plainPhoto, sidewaysJpegWithGps } from "#tests/checklist-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { defaultSiteContent } from "~/content/site-content";
import type { Config } from "../config.server";
import { sitePhotos } from "../db/schema.server";
import { saveSiteDraft } from "../site-content/site-content-store.server";
import { writeSitePhotoFiles } from "./site-photo-files.server";
import { deleteUnusedSitePhotos, sitePhotoRendition, storeSitePhoto } from "./site-photo-store.server";

let database: TestDatabase;
let config: Config;
let adminId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  config = loadContextFor(database.db).config;
  adminId = (await addStaffUser(database.db, "admin")).id;
});
afterAll(() => database.drop());

const HERO = { width: 1920, height: 1080 };
const PHOTO = { width: 960, height: 720 };

async function stored(bytes: Uint8Array, fileName: string, contentType: string, slot: typeof HERO) {
  const result = await storeSitePhoto(database.db, config, { fileName, contentType, content: bytes }, slot, adminId);
  if (!result.ok) throw new Error(`not stored: ${result.reason}`);
  return result.name;
}

/** Every file of a photo the preview answers, by its name as the pages' srcset gives it. */
async function renditionsOf(name: string, widths: number[]) {
  const files = [];
  for (const width of widths) {
    for (const format of ["avif", "webp", "jpg"] as const) {
      const rendition = await sitePhotoRendition(database.db, `${name}-${width}.${format}`);
      expect(rendition, `${name}-${width}.${format}`).toBeDefined();
      files.push({ width, format, content: rendition?.content ?? Buffer.alloc(0) });
    }
  }
  return files;
}

describe("an uploaded site photo", () => {
  it("is a 12-megapixel JPEG with a GPS position made into the hero slot's renditions, with no metadata", async () => {
    const original = await plainPhoto(4000, 3000, "jpeg");
    expect((await exifr.gps(Buffer.from(original)))?.latitude).toBeGreaterThan(33);
    const name = await stored(original, "IMG_0001.JPG", "image/jpeg", HERO);
    expect(name).toMatch(/^site-[0-9a-f]{12}$/);
    for (const file of await renditionsOf(name, [320, 640, 960, 1280, 1920])) {
      const metadata = await sharp(file.content).metadata();
      expect({ width: metadata.width, height: metadata.height, format: metadata.format }).toEqual({
        width: file.width,
        height: Math.round((file.width * 1080) / 1920),
        format: file.format === "jpg" ? "jpeg" : file.format === "avif" ? "heif" : "webp",
      });
      expect([metadata.exif, metadata.xmp, metadata.iptc], `${file.width}.${file.format}`).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(await exifr.parse(file.content).catch(() => undefined)).toBeUndefined();
    }
    const [row] = await database.db.select().from(sitePhotos);
    expect(row).toMatchObject({
      name,
      width: 1920,
      height: 1080,
      sourceWidth: 4000,
      sourceHeight: 3000,
      uploadedById: adminId,
    });
  });

  it("is turned upright and cut to the slot's shape around its centre", async () => {
    // Upright 200 by 400, red on top and blue below: the 4:3 band across its middle is half red, half blue.
    const name = await stored(await sidewaysJpegWithGps(), "IMG_0003.jpg", "image/jpeg", PHOTO);
    const jpeg = (await renditionsOf(name, [960])).find((file) => file.format === "jpg")?.content;
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([960, 720]);
    const pixel = (x: number, y: number) => [...data.subarray((y * 960 + x) * 3, (y * 960 + x) * 3 + 3)];
    const [topRed = 0, , topBlue = 0] = pixel(480, 100);
    const [bottomRed = 0, , bottomBlue = 0] = pixel(480, 620);
    expect(topRed).toBeGreaterThan(topBlue + 100);
    expect(bottomBlue).toBeGreaterThan(bottomRed + 100);
  });

  it("is an iPhone's HEIC made into a photo slot's renditions", async () => {
    const name = await stored(heicPhoto(), "IMG_0002.HEIC", "image/heic", PHOTO);
    const files = await renditionsOf(name, [320, 640, 960]);
    expect(files).toHaveLength(9);
    const jpeg = files.find((file) => file.width === 960 && file.format === "jpg")?.content;
    // The fixture's left half is green and its right half white.
    const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const [red = 0, green = 0] = [...data.subarray((360 * 960 + 100) * 3, (360 * 960 + 100) * 3 + 3)];
    expect(green).toBeGreaterThan(red + 60);
    expect(await sitePhotoRendition(database.db, `${name}-1280.jpg`)).toBeUndefined();
  });

  it("is the same name, stored once, when the same photo is sent again for the same slot size", async () => {
    const first = await stored(heicPhoto(), "IMG_0002.HEIC", "image/heic", PHOTO);
    const again = await stored(heicPhoto(), "IMG_0002 copy.HEIC", "image/heic", PHOTO);
    expect(again).toBe(first);
    expect((await database.db.select().from(sitePhotos)).filter((row) => row.name === first)).toHaveLength(1);
  });

  it("is refused with why when it cannot be read, and nothing is stored", async () => {
    const before = (await database.db.select().from(sitePhotos)).length;
    const damaged = heicPhoto().slice(0, 400);
    const result = await storeSitePhoto(
      database.db,
      config,
      { fileName: "IMG_0009.HEIC", contentType: "image/heic", content: damaged },
      PHOTO,
      adminId,
    );
    expect(result).toEqual({ ok: false, reason: "the file is damaged or not a readable image" });
    expect(await database.db.select().from(sitePhotos)).toHaveLength(before);
  });
});

describe("writeSitePhotoFiles", () => {
  it("writes every file of the uploaded photos it is given, as the build names them, and skips the build's images", async () => {
    const name = await stored(heicPhoto(), "IMG_0002.HEIC", "image/heic", PHOTO);
    const imagesDir = await mkdtemp(path.join(tmpdir(), "tce-site-photos-"));
    try {
      await writeSitePhotoFiles(database.db, [name, "hero-1", "lighting-2", name], path.join(imagesDir, "images"));
      const written = (await readdir(path.join(imagesDir, "images"))).sort();
      expect(written).toEqual(
        [320, 640, 960].flatMap((width) => ["avif", "jpg", "webp"].map((ext) => `${name}-${width}.${ext}`)).sort(),
      );
      const jpeg = await readFile(path.join(imagesDir, "images", `${name}-640.jpg`));
      expect(jpeg.equals((await sitePhotoRendition(database.db, `${name}-640.jpg`))?.content ?? Buffer.alloc(0))).toBe(
        true,
      );
      expect(await sharp(jpeg).metadata()).toMatchObject({ width: 640, height: 480 });
    } finally {
      await rm(imagesDir, { recursive: true, force: true });
    }
  });
});

describe("deleteUnusedSitePhotos", () => {
  it("deletes the photos no version or draft names once they are a day old, with their renditions, and keeps the others", async () => {
    const named = await stored(await plainPhoto(1200, 900, "jpeg", "#204060"), "named.jpg", "image/jpeg", PHOTO);
    const replaced = await stored(await plainPhoto(1200, 900, "jpeg", "#602040"), "replaced.jpg", "image/jpeg", PHOTO);
    const justSent = await stored(await plainPhoto(1200, 900, "jpeg", "#406020"), "new.jpg", "image/jpeg", PHOTO);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await database.db
      .update(sitePhotos)
      .set({ uploadedAt: twoDaysAgo })
      .where(inArray(sitePhotos.name, [named, replaced]));
    const content = structuredClone(defaultSiteContent);
    content.about.bannerImage = { ...content.about.bannerImage, name: named };
    await saveSiteDraft(database.db, { content, baseVersionId: null, userId: adminId });

    expect(await deleteUnusedSitePhotos(database.db)).toBeGreaterThanOrEqual(1);

    const left = new Set((await database.db.select({ name: sitePhotos.name }).from(sitePhotos)).map((row) => row.name));
    expect(left.has(named)).toBe(true);
    expect(left.has(justSent)).toBe(true);
    expect(left.has(replaced)).toBe(false);
    expect(await sitePhotoRendition(database.db, `${replaced}-960.jpg`)).toBeUndefined();
  });
});
