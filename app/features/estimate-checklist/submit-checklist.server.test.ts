import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isNull } from "drizzle-orm";
import exifr from "exifr";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BLANK_ANSWERS,
  CHECKLIST_WEBHOOK_KEYS,
  CORRUPT_PHOTO_NAME,
  checklistAnswers,
  type FixturePhoto,
  grainyJpegWithGps,
  heicPhoto,
  plainPhoto,
  SIDEWAYS_PHOTO_NAME,
  tenSitePhotos,
} from "#tests/checklist-fixture";
import { holdWorkPool } from "#tests/held-work-pool";
import { loadContextFor } from "#tests/load-context";
import { imagesIn, pdfText } from "#tests/pdf-reading";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { serveSubmissionFile } from "~/features/inbox/submission-file-download.server";
import { createEmailSender } from "~/outbox/email-sender.server";
import { createDeliveryWorker } from "~/outbox/worker.server";
import { startSession } from "~/services/auth/sessions.server";
import { submissionFiles, submissions } from "~/services/db/schema.server";
import { documentsBuilt } from "~/services/metrics/metrics.server";
import { workPool } from "~/services/work-pool/work-pool.server";
import { CHECKLIST_PDF_FIELD, checklistForm } from "./definition";
import { CHECKLIST_SECTIONS, checklistFields, PHOTO_MESSAGES, PHOTOS_FIELD } from "./schema";
import { submitChecklist } from "./submit-checklist.server";

const MB = 1024 * 1024;
const PATH = "/admin/quick-links/estimate-checklist";

let database: TestDatabase;
let webhook: WebhookReceiver;
let smtp: SmtpReceiver;
let context: AppLoadContext;
let cookie: string;
let workDir: string;
/** The outbox worker as the app runs it, with its mail sender. */
let worker: ReturnType<typeof createDeliveryWorker>;

beforeAll(async () => {
  database = await createTestDatabase();
  webhook = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  context = loadContextFor(database.db, {
    WEBHOOK_CHECKLIST_URL: `${webhook.url}checklist`,
    SMTP_URL: smtp.smtpUrl,
    MAIL_FROM: "Website <website@example.com>",
    STAFF_NOTIFY_EMAIL: "office@example.com",
  });
  const staff = await addStaffUser(database.db);
  cookie = cookieFrom(
    await startSession(database.db, context.config, { userId: staff.id, secondFactorPending: false }),
  );
  workDir = mkdtempSync(path.join(tmpdir(), "checklist-test-"));
  worker = createDeliveryWorker({
    db: database.db,
    config: context.config,
    logger: pino({ level: "silent" }),
    emailSender: createEmailSender(smtp.smtpUrl, "Website <website@example.com>"),
  });
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await Promise.all([webhook.close(), smtp.close(), database.drop()]);
});

/** The checklist posted by the signed-in project manager, as the browser sends it. */
function checklistPost(fields: Record<string, string>, photos: FixturePhoto[]): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const photo of photos) {
    form.append(PHOTOS_FIELD, new Blob([new Uint8Array(photo.bytes)], { type: photo.type }), photo.name);
  }
  return new Request(`http://localhost${PATH}`, { method: "POST", headers: { cookie }, body: form });
}

/** The checklist's action as the app calls it: behind the staff middleware. */
const submit = (request: Request, signedIn: AppLoadContext) => asStaffRoute(request, signedIn, submitChecklist);

const resultOf = (response: { data: unknown }) =>
  response.data as { status: string; reference?: string; message?: string };
const statusOf = (response: { init?: { status?: number } | null }) => response.init?.status ?? 200;
const countSubmissions = () => database.db.$count(submissions);
/** Files stored ahead of a submission that none adopted. */
const stagedFiles = () => database.db.$count(submissionFiles, isNull(submissionFiles.submissionId));

/** The checklist PDFs this process has built, as its metric counts them. */
const pdfsBuilt = async () =>
  (await documentsBuilt.get()).values.find((value) => value.labels.type === checklistForm.type)?.value ?? 0;

/** The images of a PDF as files (pdfimages -j keeps JPEGs as they are). */
function extractImages(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(path.join(workDir, "images-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, pdf);
  execFileSync("pdfimages", ["-j", file, path.join(dir, "image")]);
  return readdirSync(dir)
    .filter((name) => name.startsWith("image"))
    .sort()
    .map((name) => path.join(dir, name));
}

/** The colour of the pixel at (x, y), as [r, g, b]. */
async function pixel(image: Uint8Array | string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

describe("a checklist with ten photos", () => {
  let reference: string;
  let stored: Awaited<ReturnType<typeof storedByReference>>;
  let pdf: Uint8Array;

  beforeAll(async () => {
    const response = await submit(
      checklistPost({ ...checklistAnswers, submissionKey: crypto.randomUUID() }, await tenSitePhotos()),
      context,
    );
    expect(statusOf(response)).toBe(200);
    const result = resultOf(response);
    expect(result).toMatchObject({
      status: "success",
      message: "PDF generated and sent to webhook successfully!",
      sent: true,
    });
    reference = result.reference ?? "";
    stored = await storedByReference(database.db, reference);
    const pdfFile = stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);
    if (!pdfFile) throw new Error("no PDF stored");
    pdf = new Uint8Array(pdfFile.content);
  }, 60_000);

  it("stores the answers, nine photos (the corrupt one left out) and the PDF, with a webhook and an email", () => {
    expect(reference).toMatch(/^CHK-[0-9A-Z]{6}$/);
    expect(stored.submission.type).toBe("estimate-checklist");
    expect(stored.submission.payload).toEqual(checklistAnswers);
    const photos = stored.files.filter((file) => file.fieldName === PHOTOS_FIELD);
    // Served and forwarded under names made from the reference; the sender's kept as text.
    expect(photos.map((file) => [file.fileName, file.sentAs, file.contentType])).toEqual(
      [
        ["IMG_0001.jpg", "image/jpeg", "jpg"],
        ["IMG_0002-transparent.png", "image/png", "png"],
        [SIDEWAYS_PHOTO_NAME, "image/jpeg", "jpg"],
        ["IMG_0005.webp", "image/webp", "webp"],
        ["IMG_0006.jpg", "image/jpeg", "jpg"],
        ["IMG_0007.jpg", "image/jpeg", "jpg"],
        ["IMG_0008.jpg", "image/jpeg", "jpg"],
        ["IMG_0009.jpg", "image/jpeg", "jpg"],
        ["IMG_0010.jpg", "image/jpeg", "jpg"],
      ].map(([sentAs, type, extension], index) => [`${reference}-photos-${index + 1}.${extension}`, sentAs, type]),
    );
    const pdfFile = stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);
    expect(pdfFile?.fileName).toMatch(/^Estimate_Checklist_Łódź_Warehouse_Retrofit_\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(pdfFile?.contentType).toBe("application/pdf");
    expect(stored.deliveries.map((delivery) => [delivery.channel, delivery.target])).toEqual([
      ["webhook", "WEBHOOK_CHECKLIST_URL"],
      ["email", "STAFF_NOTIFY_EMAIL"],
    ]);
  });

  it("stores every photo without a GPS position, upright", async () => {
    for (const file of stored.files.filter((candidate) => candidate.fieldName === PHOTOS_FIELD)) {
      const metadata = await exifr.parse(file.content, { gps: true, xmp: true }).catch(() => undefined);
      expect(metadata?.latitude, file.fileName).toBeUndefined();
      expect(metadata?.GPSLatitude, file.fileName).toBeUndefined();
    }
    const sideways = stored.files.find((file) => file.sentAs === SIDEWAYS_PHOTO_NAME);
    if (!sideways) throw new Error("the sideways photo was not stored");
    const metadata = await sharp(sideways.content).metadata();
    expect([metadata.width, metadata.height, metadata.orientation ?? 1]).toEqual([200, 400, 1]);
    const [top, bottom] = [await pixel(sideways.content, 100, 20), await pixel(sideways.content, 100, 380)];
    expect(top[0]).toBeGreaterThan(180);
    expect(bottom[2]).toBeGreaterThan(180);
  });

  it("prints the title, every section and label, (Not provided) for each blank, the corrupt photo's note and the names as typed", async () => {
    const text = await pdfText(pdf);
    expect(text).toContain("Estimate Checklist");
    expect(text).toContain("Nguyễn Văn Łukasz");
    expect(text).toContain("Łódź Warehouse Retrofit");
    expect(text).toContain("Zoë Ångström");
    for (const section of Object.values(CHECKLIST_SECTIONS)) expect(text).toContain(section);
    for (const field of checklistFields) expect(text).toContain(field.label);
    const notProvided = text.split("(Not provided)").length - 1;
    expect(notProvided).toBe(BLANK_ANSWERS.length);
    expect(text).toContain(
      `Photo "${CORRUPT_PHOTO_NAME}" could not be included: the file is damaged or not a readable image.`,
    );
    expect(text).toContain("9 of 10 included below.");
  });

  it("draws nine thumbnails, none over 320 by 240 pixels, the sideways photo upright", async () => {
    const images = imagesIn(pdf);
    expect(images).toHaveLength(9);
    for (const image of images) {
      expect(image.type).toBe("image");
      expect(image.width).toBeLessThanOrEqual(320);
      expect(image.height).toBeLessThanOrEqual(240);
    }
    expect(images.map((image) => [image.width, image.height])).toContainEqual([320, 240]);
    const files = extractImages(pdf);
    // The third photo: 200 by 400 upright, so 120 by 240, red on top.
    const sideways = files[2] ?? "";
    const metadata = await sharp(sideways).metadata();
    expect([metadata.width, metadata.height]).toEqual([120, 240]);
    expect((await pixel(sideways, 60, 10))[0]).toBeGreaterThan(180);
    expect((await pixel(sideways, 60, 230))[2]).toBeGreaterThan(180);
  });

  it("stores the webhook body without the PDF, and sends exactly spec §7 with the stored PDF's bytes", async () => {
    const delivery = stored.deliveries.find((candidate) => candidate.channel === "webhook");
    expect(JSON.stringify(delivery?.body)).not.toContain(Buffer.from(pdf).toString("base64").slice(0, 200));

    await worker.runOnce();
    const [request] = await webhook.waitForRequests(1);
    const body = JSON.parse(request?.body ?? "{}");
    expect(Object.keys(body)).toEqual(CHECKLIST_WEBHOOK_KEYS);
    const pdfFile = stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);
    expect(body).toEqual({
      fillerName: checklistAnswers.fillerName,
      fillerEmail: checklistAnswers.fillerEmail,
      projectName: checklistAnswers.projectName,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      filename: pdfFile?.fileName,
      pdfBase64: expect.any(String),
      formData: checklistAnswers,
      photoCount: 9,
    });
    expect(Buffer.compare(Buffer.from(body.pdfBase64, "base64"), Buffer.from(pdf))).toBe(0);
  });

  it("emails the office with the stored PDF attached", async () => {
    const [message] = await smtp.waitForMessages(1);
    expect(message?.envelope.rcptTo).toEqual(["office@example.com"]);
    expect(message?.contentTypes).toContain("application/pdf");
    const unwrapped = (message?.raw ?? "").replace(/\r?\n/g, "");
    expect(unwrapped).toContain(Buffer.from(pdf).toString("base64"));
  });

  it("stores a resend with the same double-submit key once, and builds its PDF once", async () => {
    const submissionKey = crypto.randomUUID();
    const photos = [{ name: "again.jpg", type: "image/jpeg", bytes: await plainPhoto(320, 240, "jpeg") }];
    const builtBefore = await pdfsBuilt();
    const first = resultOf(await submit(checklistPost({ ...checklistAnswers, submissionKey }, photos), context));
    const before = await countSubmissions();
    const second = resultOf(await submit(checklistPost({ ...checklistAnswers, submissionKey }, photos), context));
    expect(second.reference).toBe(first.reference);
    expect(await countSubmissions()).toBe(before);
    expect(await pdfsBuilt()).toBe(builtBefore + 1);
  });

  it("stores two posts of the same checklist sent at once as one, with its photos in order and none left over", async () => {
    const submissionKey = crypto.randomUUID();
    const photos = await tenSitePhotos();
    const before = await countSubmissions();
    const [first, second] = await Promise.all(
      [1, 2].map(async () =>
        resultOf(await submit(checklistPost({ ...checklistAnswers, submissionKey }, photos), context)),
      ),
    );
    expect(second?.reference).toBe(first?.reference);
    expect(await countSubmissions()).toBe(before + 1);
    const again = await storedByReference(database.db, first?.reference ?? "");
    expect(again.files.map((file) => file.fileName)).toEqual(
      stored.files.map((file) => file.fileName.replace(reference, again.submission.reference)),
    );
    expect(await stagedFiles()).toBe(0);
  }, 60_000);
});

describe("a photo that needs no turning", () => {
  it("is stored no larger than sent, without its GPS position, and served as image/jpeg", async () => {
    const sent = await grainyJpegWithGps();
    expect((await exifr.gps(sent))?.latitude).toBeGreaterThan(33);
    const photos = [{ name: "IMG_0100.jpg", type: "image/jpeg", bytes: sent }];
    const response = await submit(
      checklistPost({ ...checklistAnswers, submissionKey: crypto.randomUUID() }, photos),
      context,
    );
    const { submission, files } = await storedByReference(database.db, resultOf(response).reference ?? "");
    const photo = files.find((file) => file.fieldName === PHOTOS_FIELD);
    if (!photo) throw new Error("the photo was not stored");
    expect(photo.content.byteLength).toBeLessThanOrEqual(sent.byteLength);
    const metadata = await exifr.parse(photo.content, { gps: true, xmp: true }).catch(() => undefined);
    expect(metadata?.latitude).toBeUndefined();
    expect((await sharp(photo.content).metadata()).exif).toBeUndefined();

    const url = `http://localhost/admin/inbox/${submission.id}/files/${photo.id}`;
    const params = { submissionId: String(submission.id), fileId: String(photo.id) };
    const served = await asStaffRoute(new Request(url, { headers: { cookie } }), context, (request, signedIn) =>
      serveSubmissionFile(request, signedIn, params),
    );
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(photo.content));
  });
});

describe("the checklist's caps", () => {
  const answers = { fillerName: "Pat", fillerEmail: "pat@example.com" };
  const jpegLike = (bytes: number) => {
    const content = new Uint8Array(bytes);
    content.set([0xff, 0xd8, 0xff, 0xe0]);
    return content;
  };

  it("says the PDF was saved, not sent, and gives the reference, where no webhook is set up", async () => {
    const post = () => checklistPost({ ...checklistAnswers, submissionKey: crypto.randomUUID() }, []);
    const withoutWebhook = (env: Record<string, string>) =>
      loadContextFor(database.db, { WEBHOOK_CHECKLIST_URL: "", ...env });
    const nothingSetUp = resultOf(await submit(post(), withoutWebhook({})));
    expect(nothingSetUp).toMatchObject({
      status: "success",
      reference: expect.stringMatching(/^CHK-/),
      sent: false,
      message:
        "PDF generated and saved. Not sent: the checklist webhook is not set up on this server. An admin can set it up.",
    });
    const emailOnly = withoutWebhook({ SMTP_URL: smtp.smtpUrl, STAFF_NOTIFY_EMAIL: "office@example.com" });
    expect(resultOf(await submit(post(), emailOnly))).toMatchObject({
      sent: false,
      message:
        "PDF generated, saved and emailed to the office. Not sent to the webhook: the checklist webhook is not set up on this server. An admin can set it up.",
    });
  });

  it("asks for the name and email when either is blank after trimming", async () => {
    const response = await submit(checklistPost({ fillerName: "  ", fillerEmail: "pat@example.com" }, []), context);
    expect(statusOf(response)).toBe(400);
    expect(resultOf(response).message).toBe("Please fill in your name and email.");
  });

  it("refuses a 31st photo with 413 and stores nothing", async () => {
    const before = await countSubmissions();
    const small = await plainPhoto(64, 48, "jpeg");
    const photos = Array.from({ length: 31 }, (_, index) => ({
      name: `p${index}.jpg`,
      type: "image/jpeg",
      bytes: small,
    }));
    const response = await submit(checklistPost(answers, photos), context);
    expect(statusOf(response)).toBe(413);
    expect(resultOf(response).message).toBe(PHOTO_MESSAGES.tooMany);
    expect(await countSubmissions()).toBe(before);
  });

  it("refuses a 30 MB photo with 413 and stores nothing", async () => {
    const before = await countSubmissions();
    const photos = [{ name: "huge.jpg", type: "image/jpeg", bytes: jpegLike(30 * MB) }];
    const response = await submit(checklistPost(answers, photos), context);
    expect(statusOf(response)).toBe(413);
    expect(resultOf(response).message).toBe(PHOTO_MESSAGES.tooLarge);
    expect(await countSubmissions()).toBe(before);
  });

  it("refuses a .jpg that is really a PDF with 400 and stores nothing", async () => {
    const before = await countSubmissions();
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
    const response = await submit(
      checklistPost(answers, [{ name: "site.jpg", type: "image/jpeg", bytes: pdf }]),
      context,
    );
    expect(statusOf(response)).toBe(400);
    expect(resultOf(response).message).toBe(PHOTO_MESSAGES.wrongType);
    expect(await countSubmissions()).toBe(before);
  });

  it("stops a 100 MB chunked post at its 80 MB cap with 413 and stores nothing", async () => {
    const before = await countSubmissions();
    const photos = Array.from({ length: 5 }, (_, index) => ({
      name: `big-${index}.jpg`,
      type: "image/jpeg",
      bytes: jpegLike(20 * MB),
    }));
    const encoded = new Response(checklistPost(answers, photos).body);
    const contentType = checklistPost(answers, []).headers.get("content-type") ?? "";
    const body = await encoded.arrayBuffer();
    expect(body.byteLength).toBeGreaterThan(100 * MB);
    const boundary =
      new TextDecoder()
        .decode(new Uint8Array(body, 0, 80))
        .split("\r\n")[0]
        ?.slice(2) ?? "";
    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= body.byteLength) return controller.close();
        const chunk = new Uint8Array(body, sent, Math.min(64 * 1024, body.byteLength - sent));
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { cookie, "content-type": contentType.replace(/boundary=.*/, `boundary=${boundary}`) },
      body: chunked,
      duplex: "half",
    };
    const response = await submit(new Request(`http://localhost${PATH}`, init), context);
    expect(statusOf(response)).toBe(413);
    expect(resultOf(response).message).toBe(checklistForm.messages.tooLarge);
    expect(sent).toBeLessThan(body.byteLength);
    expect(await countSubmissions()).toBe(before);
  });
});

describe("the photo work pool and the pixel caps", () => {
  const answers = { fillerName: "Pat", fillerEmail: "pat@example.com" };
  const contextWith = (settings: Record<string, string>) => loadContextFor(database.db, settings);

  it("answers 503 with the form's failure message and keeps the answers when every worker is busy and the queue is full", async () => {
    const busy = contextWith({ PHOTO_WORKERS: "1", PHOTO_QUEUE_LIMIT: "1" });
    const held = holdWorkPool(workPool(busy.config), 2);
    const before = await countSubmissions();
    const photos = [{ name: "site.jpg", type: "image/jpeg", bytes: await plainPhoto(64, 48, "jpeg") }];
    const submissionKey = crypto.randomUUID();
    try {
      const response = await submit(checklistPost({ ...answers, submissionKey }, photos), busy);
      expect(statusOf(response)).toBe(503);
      const refused = response.data as { status: string; message: string; result?: { initialValue?: unknown } };
      expect(refused).toMatchObject({ status: "error", message: checklistForm.messages.failed, retry: true });
      expect(refused.result?.initialValue).toMatchObject(answers);
      expect(await countSubmissions()).toBe(before);
    } finally {
      await held.release();
    }
    const resent = await submit(checklistPost({ ...answers, submissionKey }, photos), busy);
    expect(resultOf(resent).status).toBe("success");
  });

  it("leaves out a photo past PHOTO_MAX_PIXELS, a HEIC too, with why in the PDF", async () => {
    const capped = contextWith({ PHOTO_MAX_PIXELS: "2000" });
    const photos = [
      { name: "IMG_0001.HEIC", type: "image/heic", bytes: heicPhoto() },
      { name: "wide.webp", type: "image/webp", bytes: await plainPhoto(64, 48, "webp") },
      { name: "small.jpg", type: "image/jpeg", bytes: await plainPhoto(40, 40, "jpeg") },
    ];
    const response = await submit(checklistPost({ ...answers, submissionKey: crypto.randomUUID() }, photos), capped);
    const stored = await storedByReference(database.db, resultOf(response).reference ?? "");
    expect(stored.files.filter((file) => file.fieldName === PHOTOS_FIELD).map((file) => file.sentAs)).toEqual([
      "small.jpg",
    ]);
    const pdf = stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);
    const text = (await pdfText(new Uint8Array(pdf?.content ?? []))).replace(/\s+/g, " ");
    expect(text).toContain(
      'Photo "IMG_0001.HEIC" could not be included: it has 0.00307 megapixels, more than the 0.002 a photo may have.',
    );
    expect(text).toContain(
      'Photo "wide.webp" could not be included: it has 0.00307 megapixels, more than the 0.002 a photo may have.',
    );
  });

  it("leaves out the photos past SUBMISSION_MAX_PIXELS together, with why in the PDF", async () => {
    const capped = contextWith({ SUBMISSION_MAX_PIXELS: "2000" });
    const photos = [
      { name: "first.jpg", type: "image/jpeg", bytes: await plainPhoto(40, 40, "jpeg") },
      { name: "IMG_0002.HEIC", type: "image/heic", bytes: heicPhoto() },
      { name: "third.jpg", type: "image/jpeg", bytes: await plainPhoto(40, 40, "jpeg", "#335577") },
    ];
    const response = await submit(checklistPost({ ...answers, submissionKey: crypto.randomUUID() }, photos), capped);
    const stored = await storedByReference(database.db, resultOf(response).reference ?? "");
    expect(stored.files.filter((file) => file.fieldName === PHOTOS_FIELD).map((file) => file.sentAs)).toEqual([
      "first.jpg",
    ]);
    const pdf = stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD);
    const text = (await pdfText(new Uint8Array(pdf?.content ?? []))).replace(/\s+/g, " ");
    for (const name of ["IMG_0002.HEIC", "third.jpg"]) {
      expect(text).toContain(
        `Photo "${name}" could not be included: the photos before it already use the 0.002 megapixels one submission may have.`,
      );
    }
  });
});
