import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import exifr from "exifr";
import express from "express";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checklistAnswers, SIDEWAYS_PHOTO_NAME, sidewaysJpegWithGps } from "#tests/checklist-fixture";
import { loadContextFor } from "#tests/load-context";
import { imagesIn, pdfText } from "#tests/pdf-reading";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { tusMetadata } from "#tests/tus-upload";
import { checklistForm } from "../app/features/estimate-checklist/definition";
import { PHOTO_MESSAGES, PHOTOS_FIELD } from "../app/features/estimate-checklist/schema";
import { submitChecklist } from "../app/features/estimate-checklist/submit-checklist.server";
import { RESUMABLE_UPLOADS_PATH, UPLOAD_REFUSALS, uploadIdsFieldOf } from "../app/forms/resumable-uploads";
import { deleteAbandonedUploads } from "../app/forms/resumable-uploads.server";
import { ABANDONED_FILE_AGE_MS } from "../app/outbox/staged-files.server";
import { startSession } from "../app/services/auth/sessions.server";
import { resumableUploadChunks, submissions, resumableUploads as uploadRows } from "../app/services/db/schema.server";
import { giveRequestsALogger } from "./access-log";
import { requireSameOrigin } from "./request-guards";
import { resumableUploads } from "./resumable-uploads";

let database: TestDatabase;
let context: AppLoadContext;
let dataDir: string;
let baseUrl: string;
let cookie: string;
let otherCookie: string;
const servers: Server[] = [];
const instanceDirs: string[] = [];

const signIn = async () => {
  const user = await addStaffUser(database.db);
  return cookieFrom(await startSession(database.db, context.config, { userId: user.id, secondFactorPending: false }));
};

/**
 * The upload endpoint behind the app's origin check, as server/app.ts mounts it, as one app instance with its own
 * DATA_DIR and settings, on the test's database; resolves with its address.
 */
async function startEndpoint(env: Record<string, string> = {}) {
  const instanceDir = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
  instanceDirs.push(instanceDir);
  const instance = loadContextFor(database.db, { DATA_DIR: instanceDir, ...env });
  const app = express();
  giveRequestsALogger(app, pino({ level: "silent" }));
  app.use(requireSameOrigin(instance.config.SITE_URL));
  app.all(
    [RESUMABLE_UPLOADS_PATH, `${RESUMABLE_UPLOADS_PATH}/:id`],
    resumableUploads({ config: instance.config, db: database.db, forms: [checklistForm] }),
  );
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
  context = loadContextFor(database.db, { DATA_DIR: dataDir });
  cookie = await signIn();
  otherCookie = await signIn();
  baseUrl = await startEndpoint();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const directory of [dataDir, ...instanceDirs]) rmSync(directory, { recursive: true, force: true });
  await database.drop();
});

/** What the database holds of an upload: its row and its received parts. */
const heldOf = async (id: string) => ({
  uploads: await database.db.$count(uploadRows, eq(uploadRows.id, id)),
  parts: await database.db.$count(resumableUploadChunks, eq(resumableUploadChunks.uploadId, id)),
});
const NOTHING_HELD = { uploads: 0, parts: 0 };

/** Creates an upload of the checklist's photos as tus-js-client does; resolves with the response. */
function createUpload(length: number, headers: Record<string, string>, at = baseUrl) {
  return fetch(`${at}${RESUMABLE_UPLOADS_PATH}`, {
    method: "POST",
    headers: {
      "tus-resumable": "1.0.0",
      "upload-length": String(length),
      "upload-metadata": tusMetadata({
        formType: checklistForm.type,
        fieldName: PHOTOS_FIELD,
        filename: SIDEWAYS_PHOTO_NAME,
      }),
      ...headers,
    },
  });
}

const sendPart = (location: string, bytes: Uint8Array, offset: number, sender = cookie, at = baseUrl) =>
  fetch(`${at}${location}`, {
    method: "PATCH",
    headers: {
      cookie: sender,
      "tus-resumable": "1.0.0",
      "upload-offset": String(offset),
      "content-type": "application/offset+octet-stream",
    },
    body: new Uint8Array(bytes),
  });

const offsetOf = async (location: string, sender = cookie, at = baseUrl) => {
  const response = await fetch(`${at}${location}`, {
    method: "HEAD",
    headers: { cookie: sender, "tus-resumable": "1.0.0" },
  });
  return { status: response.status, offset: response.headers.get("upload-offset") };
};

/** A photo uploaded whole by the signed-in user; resolves with its upload's location and id. */
async function uploadPhoto(bytes: Uint8Array, sender = cookie) {
  const created = await createUpload(bytes.length, { cookie: sender });
  expect(created.status).toBe(201);
  const location = created.headers.get("location") ?? "";
  expect((await sendPart(location, bytes, 0, sender)).status).toBe(204);
  return { location, id: location.split("/").pop() ?? "" };
}

/** The checklist posted naming uploads in place of photos; resolves with its answer's status and result. */
function submitNaming(...ids: string[]) {
  return submitNamingWith(context, ids);
}

async function submitNamingWith(submitContext: AppLoadContext, ids: string[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(checklistAnswers)) form.append(name, value);
  form.append("submissionKey", crypto.randomUUID());
  for (const id of ids) form.append(uploadIdsFieldOf(PHOTOS_FIELD), id);
  const request = new Request("http://localhost/admin/quick-links/estimate-checklist", {
    method: "POST",
    headers: { cookie },
    body: form,
  });
  const response = await asStaffRoute(request, submitContext, submitChecklist);
  const result = response.data as { status: string; reference: string; problems?: Record<string, string> };
  return { status: response.init?.status ?? 200, result };
}

describe("the upload endpoint", () => {
  it("refuses an upload without a session, and one sent from another site, and stores nothing", async () => {
    const before = await database.db.$count(uploadRows);
    const signedOut = await createUpload(1000, {});
    expect(signedOut.status).toBe(401);
    const crossSite = await createUpload(1000, { cookie, origin: "https://elsewhere.example" });
    expect(crossSite.status).toBe(403);
    expect(await database.db.$count(uploadRows)).toBe(before);
  });

  it("resumes at the offset it holds, and never serves an upload or shows it to another user", async () => {
    const bytes = await sidewaysJpegWithGps();
    const created = await createUpload(bytes.length, { cookie });
    const location = created.headers.get("location") ?? "";
    const half = Math.floor(bytes.length / 2);
    expect((await sendPart(location, bytes.subarray(0, half), 0)).status).toBe(204);

    expect(await offsetOf(location)).toEqual({ status: 200, offset: String(half) });
    expect((await offsetOf(location, otherCookie)).status).toBe(404);
    expect((await sendPart(location, bytes.subarray(half), half, otherCookie)).status).toBe(404);
    expect((await sendPart(location, bytes.subarray(half), half)).status).toBe(204);
    expect(await offsetOf(location)).toEqual({ status: 200, offset: String(bytes.length) });
    expect((await fetch(`${baseUrl}${location}`, { headers: { cookie } })).status).toBe(405);
  });

  it("refuses a file that is not a photo once it is up, with the form's words", async () => {
    const notAPhoto = new TextEncoder().encode("%PDF-1.7 not a photo at all");
    const created = await createUpload(notAPhoto.length, { cookie });
    const sent = await sendPart(created.headers.get("location") ?? "", notAPhoto, 0);
    expect(sent.status).toBe(415);
    expect(await sent.text()).toContain(PHOTO_MESSAGES.wrongType);
  });
});

describe("an upload on two app instances, which share only the database", () => {
  it("is continued on the other from the byte the first holds, and taken by a post to a third", async () => {
    const bytes = await sidewaysJpegWithGps();
    const otherInstance = await startEndpoint();
    const created = await createUpload(bytes.length, { cookie });
    const location = created.headers.get("location") ?? "";
    const half = Math.floor(bytes.length / 2);
    expect((await sendPart(location, bytes.subarray(0, half), 0)).status).toBe(204);

    const held = { status: 200, offset: String(half) };
    expect([await offsetOf(location), await offsetOf(location, cookie, otherInstance)]).toEqual([held, held]);
    expect((await offsetOf(location, otherCookie, otherInstance)).status).toBe(404);
    expect((await sendPart(location, bytes.subarray(half), half, cookie, otherInstance)).status).toBe(204);
    expect(await offsetOf(location)).toEqual({ status: 200, offset: String(bytes.length) });

    // `context` has a DATA_DIR of its own: the post finds the upload where the instances put it.
    const { result } = await submitNaming(location.split("/").pop() ?? "");
    expect(result.status).toBe("success");
    const stored = await storedByReference(database.db, result.reference);
    expect(stored.files.filter((file) => file.fieldName === PHOTOS_FIELD).map((file) => file.sentAs)).toEqual([
      SIDEWAYS_PHOTO_NAME,
    ]);
  });

  it("takes one PATCH's bytes only where the upload's received bytes end", async () => {
    const bytes = await sidewaysJpegWithGps();
    const otherInstance = await startEndpoint();
    const location = (await createUpload(bytes.length, { cookie })).headers.get("location") ?? "";
    const half = Math.floor(bytes.length / 2);
    // Both instances are told the upload is at 0; the second PATCH to arrive finds it moved on.
    const sent = await Promise.all([
      sendPart(location, bytes.subarray(0, half), 0),
      sendPart(location, bytes.subarray(0, half), 0, cookie, otherInstance),
    ]);
    expect(sent.map((response) => response.status).sort()).toEqual([204, 409]);
    expect(await offsetOf(location)).toEqual({ status: 200, offset: String(half) });
  });
});

describe("the space uploads may take", () => {
  it("refuses a person's new upload past UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON with why, and takes one again once theirs are gone", async () => {
    const length = 1_000_000;
    const capped = await startEndpoint({ UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON: String(2 * length) });
    const person = await signIn();
    // Created side by side, as a phone sends its photos: two fit, whichever instance counts.
    const created = await Promise.all(
      Array.from({ length: 4 }, () => createUpload(length, { cookie: person }, capped)),
    );
    expect(created.map((response) => response.status).sort()).toEqual([201, 201, 413, 413]);
    const refused = created.find((response) => response.status === 413);
    expect(await refused?.text()).toBe(`${UPLOAD_REFUSALS.overPersonCap(2 * length)}\n`);
    // Someone else's uploads are theirs to count.
    expect((await createUpload(length, { cookie }, capped)).status).toBe(201);

    const location = created.find((response) => response.status === 201)?.headers.get("location") ?? "";
    const removed = await fetch(`${capped}${location}`, {
      method: "DELETE",
      headers: { cookie: person, "tus-resumable": "1.0.0" },
    });
    expect(removed.status).toBe(204);
    expect((await createUpload(length, { cookie: person }, capped)).status).toBe(201);
  });

  it("refuses a new upload that would leave DATA_DIR's disk under UPLOAD_FREE_SPACE_FLOOR, with why, and stores nothing", async () => {
    // More than this machine's disk has free.
    const floored = await startEndpoint({ UPLOAD_FREE_SPACE_FLOOR: "1000TB" });
    const before = await database.db.$count(uploadRows);
    const refused = await createUpload(1000, { cookie }, floored);
    expect(refused.status).toBe(507);
    expect(await refused.text()).toBe(`${UPLOAD_REFUSALS.diskLow}\n`);
    expect(await database.db.$count(uploadRows)).toBe(before);
  });
});

describe("a checklist whose photo went up while it was filled", () => {
  it("stores the cleaned photo the upload became (upright, without its GPS position) and deletes the upload", async () => {
    const { id } = await uploadPhoto(await sidewaysJpegWithGps());
    const { result } = await submitNaming(id);
    expect(result.status).toBe("success");
    const stored = await storedByReference(database.db, result.reference);
    const photos = stored.files.filter((file) => file.fieldName === PHOTOS_FIELD);
    expect(photos.map((photo) => photo.sentAs)).toEqual([SIDEWAYS_PHOTO_NAME]);
    const photo = photos[0]?.content ?? new Uint8Array();
    expect(await exifr.gps(photo).catch(() => undefined)).toBeUndefined();
    const { width, height } = await sharp(photo).metadata();
    expect({ width, height }).toEqual({ width: 200, height: 400 });
    // The PDF shows the photo that went up, upright, as it shows one posted with the checklist.
    const pdf = stored.files.find((file) => file.contentType === "application/pdf")?.content ?? new Uint8Array();
    expect(imagesIn(pdf).map((image) => image.height > image.width)).toEqual([true]);
    expect(await heldOf(id)).toEqual(NOTHING_HELD);
  });

  it("counts the photos that went up toward SUBMISSION_MAX_PIXELS, and leaves out those past it with why", async () => {
    // Each sideways photo has 80,000 pixels: one fits in 100,000, two do not.
    const ids = [
      (await uploadPhoto(await sidewaysJpegWithGps())).id,
      (await uploadPhoto(await sidewaysJpegWithGps())).id,
    ];
    const capped = loadContextFor(database.db, { DATA_DIR: dataDir, SUBMISSION_MAX_PIXELS: "100000" });
    const { result } = await submitNamingWith(capped, ids);
    expect(result.status).toBe("success");
    const stored = await storedByReference(database.db, result.reference);
    expect(stored.files.filter((file) => file.fieldName === PHOTOS_FIELD)).toHaveLength(1);
    const pdf = stored.files.find((file) => file.contentType === "application/pdf")?.content ?? new Uint8Array();
    expect(imagesIn(pdf)).toHaveLength(1);
    expect((await pdfText(pdf)).replace(/\s+/g, " ")).toContain(
      `Photo "${SIDEWAYS_PHOTO_NAME}" could not be included: the photos before it already use the 0.1 megapixels one submission may have.`,
    );
  });

  it("stores nothing when it names an upload that is not the sender's, and says which field to send again", async () => {
    const submissionsBefore = await database.db.$count(submissions);
    const { id } = await uploadPhoto(await sidewaysJpegWithGps(), otherCookie);
    const { status, result } = await submitNaming(id);
    expect(status).toBe(409);
    expect(result.problems).toEqual({ [uploadIdsFieldOf(PHOTOS_FIELD)]: checklistForm.messages.unreadable });
    expect(await database.db.$count(submissions)).toBe(submissionsBefore);
    expect((await heldOf(id)).uploads).toBe(1);
  });
});

describe("a checklist whose photos went up while it was filled, past its 80 MB", () => {
  it("is refused with the form's words for a post over its cap, and nothing is stored", async () => {
    const grain = { type: "gaussian", mean: 120, sigma: 40 } as const;
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#777", noise: grain } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const copies = Math.ceil(checklistForm.maxBodyBytes / photo.byteLength) + 1;
    const ids: string[] = [];
    for (let copy = 0; copy < copies; copy++) ids.push((await uploadPhoto(new Uint8Array(photo))).id);
    const submissionsBefore = await database.db.$count(submissions);

    const { status, result } = await submitNaming(...ids);
    expect(status).toBe(413);
    expect(result).toMatchObject({ status: "error", message: checklistForm.messages.tooLarge });
    expect(await database.db.$count(submissions)).toBe(submissionsBefore);
  });
});

describe("the abandoned uploads' sweep", () => {
  it("keeps an upload for now and deletes it once a day has passed since its last byte", async () => {
    const { location, id } = await uploadPhoto(await sidewaysJpegWithGps());
    await deleteAbandonedUploads(database.db);
    expect((await heldOf(id)).uploads).toBe(1);

    const aDayLater = Date.now() + ABANDONED_FILE_AGE_MS + 60_000;
    expect(await deleteAbandonedUploads(database.db, aDayLater)).toBeGreaterThan(0);
    expect(await heldOf(id)).toEqual(NOTHING_HELD);
    expect((await offsetOf(location)).status).toBe(404);
  });
});
