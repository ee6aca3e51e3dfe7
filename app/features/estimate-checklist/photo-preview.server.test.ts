import exifr from "exifr";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heicPhoto } from "#tests/checklist-fixture";
import { holdWorkPool } from "#tests/held-work-pool";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { asStaffRoute, staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { workPool } from "~/services/work-pool/work-pool.server";
import { checklistForm } from "./definition";
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

async function postPhoto(bytes: Uint8Array, name: string, type: string, signedIn = true, appContext = context) {
  const body = new FormData();
  body.set(PHOTO_PREVIEW_FIELD, new File([new Uint8Array(bytes)], name, { type }));
  const request = signedIn
    ? await staffRequest(appContext, staffId, PHOTO_PREVIEW_PATH, { method: "POST", body })
    : new Request(`http://localhost${PHOTO_PREVIEW_PATH}`, { method: "POST", body });
  return asStaffRoute(request, appContext, photoPreview).catch((thrown: unknown) => thrown as Response);
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

  it("answers 503 with the checklist's failure message when every photo worker is busy and the queue is full", async () => {
    const busy = loadContextFor(database.db, { PHOTO_WORKERS: "1", PHOTO_QUEUE_LIMIT: "0" });
    const held = holdWorkPool(workPool(busy.config), 1);
    try {
      const response = await postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic", true, busy);
      expect(response.status).toBe(503);
      expect(await response.text()).toBe(checklistForm.messages.failed);
    } finally {
      await held.release();
    }
  });

  it("goes ahead of the photo work already queued, waiting only for a worker to finish its task", async () => {
    const queued = loadContextFor(database.db, { PHOTO_WORKERS: "1", PHOTO_QUEUE_LIMIT: "8" });
    const pool = workPool(queued.config);
    // A worker already started, as in a running app, so that the task below goes to it rather than to the queue.
    expect(await postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic", true, queued)).toMatchObject({ status: 200 });
    const running = holdWorkPool(pool, 1);
    // A submitted checklist's photos waiting for the one worker, each held there until let go.
    const waitingInBulk = holdWorkPool(pool, 3);
    try {
      const preview = postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic", true, queued);
      await waitFor("the preview to be queued behind the photos", () => pool.queueSize === 4);
      await running.release();
      const answered = await Promise.race([
        preview,
        new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), 20_000)),
      ]);
      expect(answered).toMatchObject({ status: 200 });
      expect(pool.queueSize).toBe(2);
    } finally {
      await Promise.all([running.release(), waitingInBulk.release()]);
    }
  });

  it("sends a visitor who is not signed in to sign in", async () => {
    const response = await postPhoto(heicPhoto(), "IMG_0001.HEIC", "image/heic", false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/admin\?redirectTo=/);
  });
});
