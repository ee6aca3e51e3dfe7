import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { stringify } from "safe-stable-stringify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checklistAnswers, type FixturePhoto, plainPhoto, sidewaysJpegWithGps } from "#tests/checklist-fixture";
import { validEstimate } from "#tests/estimate-fixture";
import { formActionHarness, type PostedFile } from "#tests/form-action";
import { pdfText } from "#tests/pdf-reading";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { validJobRequest } from "#tests/staff-request-fixture";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { uploadChecklistPhoto } from "#tests/tus-upload";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { CHECKLIST_PDF_FIELD, checklistForm } from "~/features/estimate-checklist/definition";
import { PHOTOS_FIELD } from "~/features/estimate-checklist/schema";
import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import { jobRequestForm } from "~/features/scheduling/job-request/definition";
import { startSession } from "~/services/auth/sessions.server";
import { deliveries, submissions } from "~/services/db/schema.server";
import { documentsBuilt } from "~/services/metrics/metrics.server";
import { giveRequestsALogger } from "../../server/access-log";
import { resumableUploads } from "../../server/resumable-uploads";
import { submissionKeyOf } from "./public-guards.server";
import { RESUMABLE_UPLOADS_PATH, uploadIdsFieldOf } from "./resumable-uploads";
import { SIGNED_IN_AS_FIELD } from "./signed-in-as";
import { submitForm } from "./submit-form.server";

/** Every target the three forms deliver to, each configured, so that each submission has its deliveries. */
const TARGETS = {
  WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate",
  WEBHOOK_JOB_REQUEST_URL: "http://127.0.0.1:9/job-request",
  WEBHOOK_CHECKLIST_URL: "http://127.0.0.1:9/checklist",
  SMTP_URL: "smtp://127.0.0.1:9",
  STAFF_NOTIFY_EMAIL: "office@example.com",
  ESTIMATE_SCHEDULER_EMAIL: "pm@example.com",
};

let database: TestDatabase;
let dataDir: string;
let context: AppLoadContext;
let cookie: string;
let staffId: number;
let uploadServer: Server;
let uploadUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), "reused-key-test-"));
  context = contextFor();
  const staff = await addStaffUser(database.db);
  staffId = staff.id;
  cookie = cookieFrom(
    await startSession(database.db, context.config, { userId: staff.id, secondFactorPending: false }),
  );
  // The upload endpoint as server/app.ts mounts it, for the photos that go up while the checklist is filled.
  const app = express();
  giveRequestsALogger(app, pino({ level: "silent" }));
  app.all(
    [RESUMABLE_UPLOADS_PATH, `${RESUMABLE_UPLOADS_PATH}/:id`],
    resumableUploads({ config: context.config, db: database.db, forms: [checklistForm] }),
  );
  uploadServer = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  uploadUrl = `http://127.0.0.1:${(uploadServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => uploadServer.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
});

const estimate = formActionHarness({ path: "/learnmore", database: () => database.db });
const jobRequest = formActionHarness({ path: "/admin/quick-links/job-request", database: () => database.db });
const checklist = formActionHarness({ path: "/admin/quick-links/estimate-checklist", database: () => database.db });
const contextFor = () => estimate.contextFor({ ...TARGETS, DATA_DIR: dataDir });

type Answer = { status: number; result: { status: string; reference?: string; problems?: Record<string, string> } };
const answerOf = (response: { data: unknown; init?: { status?: number } | null }): Answer => ({
  status: response.init?.status ?? 200,
  result: response.data as Answer["result"],
});

const sendEstimate = async (fields: Record<string, string>) =>
  answerOf(await submitEstimate(estimate.post(fields), context));

/** The job request as its route's action sends it, behind the staff middleware. */
const sendJobRequest = async (fields: Record<string, string>) =>
  answerOf(
    await asStaffRoute(jobRequest.post(fields, { headers: { cookie } }), context, (request, signedIn) =>
      submitForm(request, signedIn, jobRequestForm),
    ),
  );

/** The checklist, with a photo posted in it or none (photos that went up are named in `fields`). */
const sendChecklist = async (fields: Record<string, string>, photo?: FixturePhoto) => {
  const files: Record<string, PostedFile> | undefined = photo ? { [PHOTOS_FIELD]: photo } : undefined;
  return answerOf(await asStaffRoute(checklist.post(fields, { headers: { cookie }, files }), context, submitChecklist));
};

const referenceOf = (answer: Answer) => {
  expect(answer).toMatchObject({ status: 200, result: { status: "success" } });
  return answer.result.reference ?? "";
};

const rowCounts = async () => ({
  submissions: await database.db.$count(submissions),
  deliveries: await database.db.$count(deliveries),
});

/** A stored submission's payload and the targets of its deliveries. */
async function storedAnswers(reference: string) {
  const stored = await storedByReference(database.db, reference);
  return {
    payload: stored.submission.payload as Record<string, unknown>,
    targets: stored.deliveries.map((delivery) => delivery.target),
    files: stored.files,
  };
}

/** The checklist PDFs this process has built, as its metric counts them. */
const pdfsBuilt = async () =>
  (await documentsBuilt.get()).values.find((value) => value.labels.type === checklistForm.type)?.value ?? 0;

const pdfOf = (files: Awaited<ReturnType<typeof storedAnswers>>["files"]) =>
  files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);

describe("the key a submission is stored under", () => {
  const address = "192.0.2.10";
  const secret = "a session secret of thirty-two characters or more";

  it("is the same for the same answers, whatever the order of their objects' keys", () => {
    const guards = { submissionKey: crypto.randomUUID() };
    const stored = { any: "payload" };
    const answers = [{ jobName: "Gym panels", contact: { name: "Sam", phone: "803-555-0199" } }, ["a1b2"], []];
    const reordered = [{ contact: { phone: "803-555-0199", name: "Sam" }, jobName: "Gym panels" }, ["a1b2"], []];
    expect(submissionKeyOf(guards, address, { answers: reordered, stored }, secret)).toBe(
      submissionKeyOf(guards, address, { answers, stored }, secret),
    );
  });

  it("differs for other answers, for another key, and is never the browser's key itself", () => {
    const guards = { submissionKey: crypto.randomUUID() };
    const stored = { any: "payload" };
    const key = submissionKeyOf(guards, address, { answers: { jobName: "Gym panels" }, stored }, secret);
    expect(key).not.toBe(guards.submissionKey);
    expect(submissionKeyOf(guards, address, { answers: { jobName: "Gym panel" }, stored }, secret)).not.toBe(key);
    const otherGuards = { submissionKey: crypto.randomUUID() };
    expect(submissionKeyOf(otherGuards, address, { answers: { jobName: "Gym panels" }, stored }, secret)).not.toBe(key);
  });

  it("without a browser's key, cannot be found again from what is stored by trying every address", () => {
    const stored = [{ reviewerKey: "stored beside the answers", ratings: [4, 5] }];
    const key = submissionKeyOf({}, address, { answers: stored, stored }, secret);
    const window = Math.floor(Date.now() / 600_000);
    const tried = Array.from({ length: 256 }, (_, last) => `192.0.2.${last}`);
    const plainDigest = (candidate: string) =>
      createHash("sha256")
        .update(stringify([candidate, stored, window]))
        .digest("hex");
    expect(tried.filter((candidate) => plainDigest(candidate) === key)).toEqual([]);
    expect(submissionKeyOf({}, address, { answers: stored, stored }, secret)).toBe(key);
    expect(submissionKeyOf({}, "192.0.2.11", { answers: stored, stored }, secret)).not.toBe(key);
  });
});

describe("a public form sent again under the same key", () => {
  it("with the same answers is the stored submission: same reference, one row, one set of deliveries", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await rowCounts();
    const first = referenceOf(await sendEstimate({ ...validEstimate, submissionKey }));
    const again = referenceOf(await sendEstimate({ ...validEstimate, submissionKey }));

    expect(again).toBe(first);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 1, deliveries: before.deliveries + 2 });
    expect((await storedAnswers(first)).targets).toEqual(["WEBHOOK_ESTIMATE_URL", "STAFF_NOTIFY_EMAIL"]);
  });

  it("with the same answers in another order is still the stored submission", async () => {
    const submissionKey = crypto.randomUUID();
    const first = referenceOf(await sendEstimate({ ...validEstimate, submissionKey }));
    const reordered = Object.fromEntries(Object.entries({ ...validEstimate, submissionKey }).reverse());
    expect(referenceOf(await sendEstimate(reordered))).toBe(first);
  });

  it("with other answers is stored as its own submission, with its own reference and deliveries", async () => {
    const submissionKey = crypto.randomUUID();
    const corrected = { ...validEstimate, phone: "(803) 555-0142" };
    const before = await rowCounts();
    const first = referenceOf(await sendEstimate({ ...validEstimate, submissionKey }));
    const second = referenceOf(await sendEstimate({ ...corrected, submissionKey }));

    expect(second).not.toBe(first);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 2, deliveries: before.deliveries + 4 });
    const [firstStored, secondStored] = [await storedAnswers(first), await storedAnswers(second)];
    expect(firstStored.payload).toMatchObject({ phone: validEstimate.phone });
    expect(secondStored.payload).toMatchObject({ phone: corrected.phone });
    expect(secondStored.targets).toEqual(["WEBHOOK_ESTIMATE_URL", "STAFF_NOTIFY_EMAIL"]);
    // Each set of answers stays its own submission when it is sent again.
    expect(referenceOf(await sendEstimate({ ...corrected, submissionKey }))).toBe(second);
    expect(referenceOf(await sendEstimate({ ...validEstimate, submissionKey }))).toBe(first);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 2, deliveries: before.deliveries + 4 });
  });
});

describe("a staff form sent again under the same key", () => {
  const jobTargets = ["WEBHOOK_JOB_REQUEST_URL", "ESTIMATE_SCHEDULER_EMAIL"];

  it("with the same answers is the stored submission, however the amount was typed", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await rowCounts();
    const first = referenceOf(await sendJobRequest({ ...validJobRequest, submissionKey }));
    // The same amount as the schema reads it ($12,500.5 is 12500.50).
    const again = referenceOf(
      await sendJobRequest({ ...validJobRequest, projectTotalAmount: "12500.50", submissionKey }),
    );

    expect(again).toBe(first);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 1, deliveries: before.deliveries + 2 });
    expect((await storedAnswers(first)).targets).toEqual(jobTargets);
  });

  it("with other answers is stored as its own submission, with its own reference and deliveries", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await rowCounts();
    const first = referenceOf(await sendJobRequest({ ...validJobRequest, submissionKey }));
    const second = referenceOf(
      await sendJobRequest({ ...validJobRequest, jobAddress: "402 Lake Dr, Lexington, SC 29072", submissionKey }),
    );

    expect(second).not.toBe(first);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 2, deliveries: before.deliveries + 4 });
    expect((await storedAnswers(first)).payload).toMatchObject({ jobAddress: validJobRequest.jobAddress });
    const secondStored = await storedAnswers(second);
    expect(secondStored.payload).toMatchObject({ jobAddress: "402 Lake Dr, Lexington, SC 29072" });
    expect(secondStored.targets).toEqual(jobTargets);
  });
});

describe("a checklist with a photo sent again under the same key", () => {
  let photo: FixturePhoto;
  beforeAll(async () => {
    photo = { name: "panel.jpg", type: "image/jpeg", bytes: await plainPhoto(320, 240, "jpeg") };
  });

  it("with the same answers and photo is the stored submission: its PDF is not built again", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await rowCounts();
    const builtBefore = await pdfsBuilt();
    const first = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey }, photo));
    const again = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey }, photo));

    expect(again).toBe(first);
    expect(await pdfsBuilt()).toBe(builtBefore + 1);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 1, deliveries: before.deliveries + 2 });
    expect((await storedAnswers(first)).files.map((file) => file.fieldName)).toEqual([
      PHOTOS_FIELD,
      CHECKLIST_PDF_FIELD,
    ]);
  });

  it("with other answers is stored as its own submission, with its own PDF and deliveries", async () => {
    const submissionKey = crypto.randomUUID();
    const renamed = { ...checklistAnswers, projectName: "Sumter Depot Expansion" };
    const before = await rowCounts();
    const builtBefore = await pdfsBuilt();
    const first = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey }, photo));
    const second = referenceOf(await sendChecklist({ ...renamed, submissionKey }, photo));

    expect(second).not.toBe(first);
    expect(await pdfsBuilt()).toBe(builtBefore + 2);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 2, deliveries: before.deliveries + 4 });
    const [firstStored, secondStored] = [await storedAnswers(first), await storedAnswers(second)];
    expect(secondStored.payload).toMatchObject({ projectName: renamed.projectName });
    expect(secondStored.targets).toEqual(["WEBHOOK_CHECKLIST_URL", "STAFF_NOTIFY_EMAIL"]);
    const [firstPdf, secondPdf] = [pdfOf(firstStored.files), pdfOf(secondStored.files)];
    expect(firstPdf?.id).not.toBe(secondPdf?.id);
    expect(await pdfText(firstPdf?.content ?? new Uint8Array())).toContain(checklistAnswers.projectName);
    expect(await pdfText(secondPdf?.content ?? new Uint8Array())).toContain(renamed.projectName);
  });

  it("with the same answers and another photo is stored as its own submission", async () => {
    const submissionKey = crypto.randomUUID();
    const other = { ...photo, bytes: await plainPhoto(320, 240, "jpeg", "#335577") };
    const first = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey }, photo));
    const second = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey }, other));

    expect(second).not.toBe(first);
    expect((await storedAnswers(second)).files.map((file) => file.fieldName)).toEqual([
      PHOTOS_FIELD,
      CHECKLIST_PDF_FIELD,
    ]);
  });
});

describe("a checklist naming photos that went up, sent again under the same key", () => {
  const uploadsField = uploadIdsFieldOf(PHOTOS_FIELD);

  /** A photo sent up as the page does while the checklist is filled; resolves with its upload's id. */
  async function uploadPhoto(bytes: Uint8Array): Promise<string> {
    const { sent, location } = await uploadChecklistPhoto(uploadUrl, { cookie }, bytes, "IMG_0003.jpg");
    expect(sent.status).toBe(204);
    return location.split("/").pop() ?? "";
  }

  it("with the same answers is the stored submission, though its uploads were taken by it", async () => {
    const submissionKey = crypto.randomUUID();
    const upload = await uploadPhoto(await sidewaysJpegWithGps());
    const first = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey, [uploadsField]: upload }));
    const before = await rowCounts();
    const again = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey, [uploadsField]: upload }));

    expect(again).toBe(first);
    expect(await rowCounts()).toEqual(before);
  });

  it("with other answers is never answered as the submission that took its uploads, and stores nothing", async () => {
    const submissionKey = crypto.randomUUID();
    const photo = await sidewaysJpegWithGps();
    const upload = await uploadPhoto(photo);
    const first = referenceOf(await sendChecklist({ ...checklistAnswers, submissionKey, [uploadsField]: upload }));
    const renamed = { ...checklistAnswers, projectName: "Sumter Depot Expansion", submissionKey };
    const before = await rowCounts();

    // The upload was taken by the first submission: the browser is asked for the photo itself.
    const named = await sendChecklist({ ...renamed, [uploadsField]: upload });
    expect(named).toMatchObject({
      status: 409,
      result: { status: "error", problems: { [uploadsField]: expect.any(String) } },
    });
    expect(named.result.reference).toBeUndefined();
    expect(await rowCounts()).toEqual(before);

    // Sent with its photo, as the browser then sends it, it is its own submission.
    const second = referenceOf(
      await sendChecklist(renamed, { name: "IMG_0003.jpg", type: "image/jpeg", bytes: photo }),
    );
    expect(second).not.toBe(first);
    const secondStored = await storedAnswers(second);
    expect(secondStored.payload).toMatchObject({ projectName: renamed.projectName });
    expect(secondStored.files.map((file) => file.fieldName)).toEqual([PHOTOS_FIELD, CHECKLIST_PDF_FIELD]);
    expect(await rowCounts()).toEqual({ submissions: before.submissions + 1, deliveries: before.deliveries + 2 });
  });
});

describe("a staff form filled in by one person and sent under another's session", () => {
  it("is not stored as theirs: it is answered as signed out, so the device keeps it for its own person", async () => {
    const before = await rowCounts();
    const answer = await sendJobRequest({
      ...validJobRequest,
      submissionKey: crypto.randomUUID(),
      [SIGNED_IN_AS_FIELD]: String(staffId + 1000),
    });
    expect(answer).toMatchObject({ status: 409, result: { status: "error", failure: "signedOut" } });
    expect(await rowCounts()).toEqual(before);
  });

  it("is stored when its person is the session's", async () => {
    const answer = await sendJobRequest({
      ...validJobRequest,
      submissionKey: crypto.randomUUID(),
      [SIGNED_IN_AS_FIELD]: String(staffId),
    });
    expect(referenceOf(answer)).toMatch(/^JOB-/);
  });
});
