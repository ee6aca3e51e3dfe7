// The estimate checklist with ten twelve-megapixel photos: posts it to the built app as the page's script
// does (multipart to the JSON route), signed in, and times the submit until the answer that the checklist,
// its cleaned photos and its PDF are stored. Reports the app process's peak memory (VmHWM) while doing it,
// and beside it, as a reference from the same run, the same photo work done by sharp in this process alone.
// Part of `npm run bench`; on its own (after `npm run build`): `npx tsx scripts/bench-checklist.ts`.
import { readFile, rm } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { startAppServer } from "#tests/app-server";
import { startStaffSession } from "#tests/staff-session";
import { uploadChecklistPhoto } from "#tests/tus-upload";
import { median } from "./percentile";

const PHOTOS = 10;
const RUNS = 3;
const MB = 1024 * 1024;

export type ChecklistBenchResult = {
  photos: number;
  uploadMegabytes: number;
  submitToStoredPdfMs: number[];
  referenceSharpMs: number;
  baselineMemoryMb: number;
  peakMemoryMb: number;
  /** The same checklist with its photos already up (tus, as the page sends them while it is filled): Submit alone. */
  submitOncePhotosUpMs: number[];
};

/** A 4000 x 3000 photo with grain, so it compresses like a real one (a few megabytes), not like a flat colour. */
async function twelveMegapixelPhoto(index: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: "#6b7f5a",
      noise: { type: "gaussian", mean: 120, sigma: 40 },
    },
  })
    .blur(1.2)
    .withMetadata({ orientation: index % 2 === 0 ? 1 : 6 })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** Peak resident memory of a process so far, from Linux's /proc (VmHWM), in megabytes. */
async function peakResidentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}

function checklistBody(photos: Buffer[]): FormData {
  const form = new FormData();
  form.append("fillerName", "Bench Manager");
  form.append("fillerEmail", "bench@example.com");
  form.append("projectName", "Bench Warehouse");
  form.append("submissionKey", crypto.randomUUID());
  photos.forEach((photo, index) => {
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), `IMG_${1000 + index}.jpg`);
  });
  return form;
}

/** What the server does with the photos, done here by sharp alone: upright re-encode, then a thumbnail. */
async function referenceSharp(photos: Buffer[]): Promise<number> {
  const started = performance.now();
  for (const photo of photos) {
    const cleaned = await sharp(photo).rotate().jpeg({ quality: 95 }).toBuffer();
    await sharp(cleaned).resize(320, 240, { fit: "inside" }).jpeg({ quality: 95 }).toBuffer();
  }
  return performance.now() - started;
}

export async function benchChecklist(): Promise<ChecklistBenchResult> {
  const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, index) => twelveMegapixelPhoto(index)));
  const uploadMegabytes = photos.reduce((sum, photo) => sum + photo.byteLength, 0) / MB;
  const app = await startAppServer();
  try {
    const pid = app.process.pid;
    if (pid === undefined) throw new Error("the app has no process id");
    const { cookie } = await startStaffSession({ dataDir: app.dataDir, role: "staff", label: "bench" });
    const baselineMemoryMb = await peakResidentMb(pid);
    const submitToStoredPdfMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await fetch(`${app.url}/admin/quick-links/estimate-checklist/submit`, {
        method: "POST",
        headers: { cookie, origin: app.url },
        body: checklistBody(photos),
      });
      const answer = (await response.json()) as { status: string };
      if (answer.status !== "success") throw new Error(`the checklist was not stored: ${JSON.stringify(answer)}`);
      submitToStoredPdfMs.push(performance.now() - started);
    }
    const peakMemoryMb = await peakResidentMb(pid);
    const submitOncePhotosUpMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const uploadIds: string[] = [];
      for (const [index, photo] of photos.entries()) {
        const { sent, location } = await uploadChecklistPhoto(
          app.url,
          { cookie, origin: app.url },
          photo,
          `IMG_${1000 + index}.jpg`,
        );
        if (sent.status !== 204) throw new Error(`the photo did not go up: ${sent.status} ${await sent.text()}`);
        uploadIds.push(location.split("/").pop() ?? "");
      }
      const body = checklistBody([]);
      for (const id of uploadIds) body.append("photosUploaded", id);
      const started = performance.now();
      const response = await fetch(`${app.url}/admin/quick-links/estimate-checklist/submit`, {
        method: "POST",
        headers: { cookie, origin: app.url },
        body,
      });
      const answer = (await response.json()) as { status: string };
      if (answer.status !== "success") throw new Error(`the checklist was not stored: ${JSON.stringify(answer)}`);
      submitOncePhotosUpMs.push(performance.now() - started);
    }
    const referenceSharpMs = await referenceSharp(photos);
    return {
      photos: PHOTOS,
      uploadMegabytes,
      submitToStoredPdfMs,
      referenceSharpMs,
      baselineMemoryMb,
      peakMemoryMb,
      submitOncePhotosUpMs,
    };
  } finally {
    await app.stop();
    await rm(app.dataDir, { recursive: true, force: true });
  }
}

export function printChecklistBench(result: ChecklistBenchResult) {
  const middle = median(result.submitToStoredPdfMs);
  console.log(
    `\nEstimate checklist, ${result.photos} twelve-megapixel photos (${result.uploadMegabytes.toFixed(1)} MB), ` +
      `${result.submitToStoredPdfMs.length} runs: submit to stored PDF median ${(middle / 1000).toFixed(1)} s ` +
      `(${[...result.submitToStoredPdfMs]
        .sort((a, b) => a - b)
        .map((ms) => (ms / 1000).toFixed(1))
        .join(", ")} s); the same photo work by sharp alone ` +
      `${(result.referenceSharpMs / 1000).toFixed(1)} s (ratio ${(middle / result.referenceSharpMs).toFixed(2)})`,
  );
  const onceUp = result.submitOncePhotosUpMs;
  console.log(
    `Submit to success once the ${result.photos} photos are up (tus): median ${(median(onceUp) / 1000).toFixed(1)} s ` +
      `(${[...onceUp]
        .sort((a, b) => a - b)
        .map((ms) => (ms / 1000).toFixed(1))
        .join(", ")} s; goal under 5 s)`,
  );
  console.log(
    `Server memory: peak ${result.peakMemoryMb.toFixed(0)} MB resident while submitting (after start ` +
      `${result.baselineMemoryMb.toFixed(0)} MB)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printChecklistBench(await benchChecklist());
}
