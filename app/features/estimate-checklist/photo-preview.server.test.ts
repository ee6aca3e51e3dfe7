import exifr from "exifr";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heicPhoto } from "#tests/checklist-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { asStaffRoute, staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { PHOTO_PREVIEW_FIELD, PHOTO_PREVIEW_PATH } from "./photo-preview";
import { photoPreview } from "./photo-preview.server";

let database: TestDatabase;
let context: AppLoadContext;
let staffId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  staffId = (await addStaffUser(database.db)).id;
});
afterAll(() => database.drop());

async function postPhoto(bytes: Uint8Array, name: string, type: string, signedIn = true) {
  const body = new FormData();
  body.set(PHOTO_PREVIEW_FIELD, new File([new Uint8Array(bytes)], name, { type }));
  const request = signedIn
    ? await staffRequest(context, staffId, PHOTO_PREVIEW_PATH, { method: "POST", body })
    : new Request(`http://localhost${PHOTO_PREVIEW_PATH}`, { method: "POST", body });
  return asStaffRoute(request, context, photoPreview).catch((thrown: unknown) => thrown as Response);
}

describe("the checklist's photo preview", () => {
  it("turns a HEIC into a small upright JPEG without metadata, the way the submit cleans it", async () => {
    const response = await postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const jpeg = Buffer.from(await response.arrayBuffer());
    const image = sharp(jpeg);
    expect(await image.metadata()).toMatchObject({ format: "jpeg", width: 64, height: 48 });
    expect(await exifr.parse(jpeg)).toBeUndefined();
    // The fixture's left half is green and its right half white.
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [red = 0, green = 0, blue = 0] = pixel(8, 24);
    expect(green).toBeGreaterThan(red + 60);
    expect(green).toBeGreaterThan(blue + 60);
    expect(pixel(56, 24).every((channel) => channel > 220)).toBe(true);
  });

  it("refuses a file that is not a photo, and a damaged one", async () => {
    const text = await postPhoto(new TextEncoder().encode("not a photo at all"), "notes.heic", "image/heic");
    expect(text.status).toBe(400);
    const damaged = heicPhoto().slice(0, 400);
    expect((await postPhoto(damaged, "IMG_0002.HEIC", "image/heic")).status).toBe(422);
  });

  it("sends a visitor who is not signed in to sign in", async () => {
    const response = await postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic", false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/admin\?redirectTo=/);
  });
});
