import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { queryAppDatabase } from "../support/submission-lookup";
import { expect, test } from "./fixtures";

const PAGE = "/admin/quick-links/estimate-checklist";
const SUBMIT_URL = `**${PAGE}/submit`;
/** The shared app has no checklist webhook: the outcome says the PDF was saved, not sent. */
const SUCCESS_MESSAGE = "PDF generated and saved. Not sent: the checklist webhook is not set up on this server.";
const DATA_DIR = process.env.E2E_DATA_DIR ?? "";

/** A phone in the field: 5 Mbit/s up, 100 ms each way, as Chromium's network emulation makes it. */
const PHONE_UPLINK = {
  latency: 100,
  uploadThroughput: (5 * 1000 * 1000) / 8,
  downloadThroughput: (20 * 1000 * 1000) / 8,
};

async function emulatePhoneUplink(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PHONE_UPLINK });
}

/** A grainy photo as a phone takes it, of about `width` by `height` pixels and a megabyte or more. */
async function sitePhoto(name: string, width: number, height: number) {
  const grain = { type: "gaussian", mean: 128, sigma: 30 } as const;
  const buffer = await sharp({ create: { width, height, channels: 3, background: "#777777", noise: grain } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** The signed-in user of the test running in this worker: other tests, in parallel, upload as others. */
let owner = 0;

/** This test's user's uploads in the store (the app's database), with the bytes each has received. */
async function rawUploads(): Promise<Map<string, number>> {
  const rows = await queryAppDatabase<{ id: string; received_bytes: number }>(
    DATA_DIR,
    "SELECT id, received_bytes FROM resumable_uploads WHERE owner_id = $1",
    [owner],
  );
  return new Map(rows.map((row) => [row.id, row.received_bytes]));
}

test.beforeEach(async ({ page, signInAsStaff }) => {
  owner = (await signInAsStaff("staff", "uploads")).id;
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1, name: "Estimate Checklist" })).toBeVisible();
});

test("ten photos go up while the form is filled, and Submit then sends only the answers", async ({ page }) => {
  test.setTimeout(240_000);
  await emulatePhoneUplink(page);
  const name = `Upload Tester ${Date.now()}`;
  const photos = await Promise.all(
    Array.from({ length: 10 }, (_, index) => sitePhoto(`IMG_${1000 + index}.jpg`, 1600, 1200)),
  );
  await page.getByLabel("Choose photos").setInputFiles(photos);
  await page.getByLabel("Your Name").fill(name);
  await page.getByLabel("Your Email").fill("pm@example.com");
  await page.getByLabel("Project Name").fill("Uplink Depot");
  await page.getByLabel("Panel Condition").fill("Fine.");
  const photoList = page.getByRole("region", { name: "Site Photos" });
  // Each photo's progress is said in words while it goes up.
  await expect(photoList.getByText(/Uploading: .* of .*/).first()).toBeVisible();
  await expect(photoList.getByText("Uploaded", { exact: true })).toHaveCount(10, { timeout: 180_000 });

  const post = page.waitForRequest(SUBMIT_URL);
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  expect((await post).postDataBuffer()?.length ?? 0).toBeLessThan(64 * 1024);
  await expect(page.getByRole("status").filter({ hasText: SUCCESS_MESSAGE })).toBeVisible({ timeout: 60_000 });

  const stored = await queryAppDatabase<{ sent_as: string }>(
    DATA_DIR,
    "SELECT f.sent_as FROM submission_files f JOIN submissions s ON s.id = f.submission_id WHERE s.contact_name = $1 AND f.field_name = 'photos' ORDER BY f.id",
    [name],
  );
  expect(stored.map((file) => file.sent_as)).toEqual(photos.map((photo) => photo.name));
});

/**
 * A loopback TCP relay in front of the app that counts the bytes the phone sends and can cut the line: once
 * `cutAfter` bytes have come since it was armed, it resets every connection and refuses new ones until `restore`.
 * Or it can stall one: once `holdAfter` bytes have come, the connection carrying them forwards nothing more (a
 * request stuck mid-way, however fast the machine), and the app's side is dropped when the phone closes it.
 */
async function startCuttableLine(appUrl: string) {
  const app = new URL(appUrl);
  const sockets = new Set<Socket>();
  const line = {
    sent: 0,
    cutAfter: Number.POSITIVE_INFINITY,
    holdAfter: Number.POSITIVE_INFINITY,
    held: false,
    down: false,
    refused: 0,
  };
  const relay = createServer((phone) => {
    if (line.down) {
      line.refused += 1;
      phone.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(app.port), app.hostname);
    for (const socket of [phone, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => phone.destroy());
    }
    upstream.on("error", () => phone.destroy());
    let stalled = false;
    phone.on("data", (chunk: Buffer) => {
      // A stalled connection's bytes are read, so that its closing is seen, and go nowhere.
      if (stalled) return;
      line.sent += chunk.length;
      if (line.sent >= line.holdAfter) {
        Object.assign(line, { holdAfter: Number.POSITIVE_INFINITY, held: true });
        stalled = true;
        phone.unpipe(upstream);
        phone.once("close", () => upstream.destroy());
        return;
      }
      if (line.sent < line.cutAfter) return;
      line.down = true;
      for (const socket of sockets) socket.resetAndDestroy();
    });
    phone.pipe(upstream).pipe(phone);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    line,
    armAt: (bytes: number) => Object.assign(line, { sent: 0, cutAfter: bytes }),
    holdAt: (bytes: number) => Object.assign(line, { sent: 0, holdAfter: bytes }),
    restore: () => Object.assign(line, { down: false, cutAfter: Number.POSITIVE_INFINITY }),
    close: () =>
      new Promise((resolve) => {
        relay.close(resolve);
        for (const socket of sockets) socket.destroy();
      }),
  };
}

test("a connection cut at half a photo resumes from where it was", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const cuttable = await startCuttableLine(baseURL ?? "");
  try {
    await page.goto(`${cuttable.url}${PAGE}`);
    await expect(page.getByRole("heading", { level: 1, name: "Estimate Checklist" })).toBeVisible();
    await emulatePhoneUplink(page);
    const photo = await sitePhoto("IMG_2000.jpg", 3000, 2000);
    const before = new Set((await rawUploads()).keys());
    const upload = async () => [...(await rawUploads())].filter(([id]) => !before.has(id));

    // The signal drops once half the photo has gone out, and comes back once the phone has tried again.
    cuttable.armAt(photo.buffer.length / 2);
    await page.getByLabel("Choose photos").setInputFiles([photo]);
    await expect.poll(() => cuttable.line.refused, { timeout: 60_000 }).toBeGreaterThan(0);
    const heldWhenCut = (await upload()).reduce((sum, [, size]) => sum + size, 0);
    expect(heldWhenCut).toBeGreaterThan(0);
    expect(heldWhenCut).toBeLessThan(photo.buffer.length);
    const sentBeforeCut = cuttable.line.sent;
    cuttable.restore();

    const photoList = page.getByRole("region", { name: "Site Photos" });
    await expect(photoList.getByText("Uploaded", { exact: true })).toHaveCount(1, { timeout: 60_000 });
    // One upload, continued from the byte the server held: the photo went up about once, not half and then whole.
    const received = await upload();
    expect(received.map(([, size]) => size)).toEqual([photo.buffer.length]);
    expect(cuttable.line.sent - sentBeforeCut).toBeLessThan(photo.buffer.length);
    expect(cuttable.line.sent).toBeLessThan(1.5 * photo.buffer.length);
  } finally {
    await cuttable.close();
  }
});

test("a photo whose upload the server no longer has is sent with the checklist itself", async ({ page }) => {
  // An upload, a submit with its PDF and three queries of the app's database: about 25 s on a loaded machine.
  test.setTimeout(60_000);
  const name = `Lost Upload Tester ${Date.now()}`;
  const before = new Set((await rawUploads()).keys());
  await page.getByLabel("Your Name").fill(name);
  await page.getByLabel("Your Email").fill("pm@example.com");
  await page.getByLabel("Choose photos").setInputFiles([await sitePhoto("IMG_3000.jpg", 800, 600)]);
  const photoList = page.getByRole("region", { name: "Site Photos" });
  await expect(photoList.getByText("Uploaded", { exact: true })).toHaveCount(1, { timeout: 30_000 });
  // As the day-old sweep would, or another app instance never having had it.
  const ids = [...(await rawUploads()).keys()].filter((id) => !before.has(id));
  expect(ids).toHaveLength(1);
  await queryAppDatabase(DATA_DIR, "DELETE FROM resumable_uploads WHERE id = ANY($1)", [ids]);

  await page.getByRole("button", { name: "Submit Checklist" }).click();
  await expect(page.getByRole("status").filter({ hasText: SUCCESS_MESSAGE })).toBeVisible({ timeout: 30_000 });
  const stored = await queryAppDatabase<{ sent_as: string }>(
    DATA_DIR,
    "SELECT f.sent_as FROM submission_files f JOIN submissions s ON s.id = f.submission_id WHERE s.contact_name = $1 AND f.field_name = 'photos'",
    [name],
  );
  expect(stored.map((file) => file.sent_as)).toEqual(["IMG_3000.jpg"]);
});

test("a reload in the middle of a photo's upload continues it from where it was", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const line = await startCuttableLine(baseURL ?? "");
  try {
    await page.goto(`${line.url}${PAGE}`);
    await expect(page.getByRole("heading", { level: 1, name: "Estimate Checklist" })).toBeVisible();
    await emulatePhoneUplink(page);
    const photo = await sitePhoto("IMG_4000.jpg", 3000, 2000);
    const before = new Set((await rawUploads()).keys());
    const upload = async () => [...(await rawUploads())].filter(([id]) => !before.has(id));
    const held = async () => (await upload()).reduce((sum, [, size]) => sum + size, 0);

    // The photo's connection stalls once half of it has gone out, so the reload comes mid-way on any machine.
    line.holdAt(photo.buffer.length / 2);
    await page.getByLabel("Choose photos").setInputFiles([photo]);
    await expect(page.getByText(/Draft saved on this device at/)).toBeVisible();
    await expect.poll(() => line.line.held, { timeout: 60_000 }).toBe(true);
    await expect.poll(held, { timeout: 30_000, intervals: [100] }).toBeGreaterThan(photo.buffer.length / 4);
    const sentAtReload = line.line.sent;
    expect(await held()).toBeLessThan(photo.buffer.length);
    await page.reload();

    const photoList = page.getByRole("region", { name: "Site Photos" });
    await expect(photoList.getByText("IMG_4000.jpg")).toBeVisible();
    await expect(photoList.getByText("Uploaded", { exact: true })).toHaveCount(1, { timeout: 60_000 });
    // The same upload, continued: from the reload on, the page and the rest of the photo weigh less than the photo.
    expect((await upload()).map(([, size]) => size)).toEqual([photo.buffer.length]);
    expect(line.line.sent - sentAtReload).toBeLessThan(photo.buffer.length);
  } finally {
    await line.close();
  }
});
