// The estimate checklist with ten twelve-megapixel photos: posts it to the built app as the page's script
// does (multipart to the JSON route), signed in, and times the submit until the answer that the checklist,
// its cleaned photos and its PDF are stored; then four such checklists at once, while the home page and the
// sign-in page are timed. Reports the rise of the app process's own peak memory (VmHWM, reset before each
// part) for one and for four, and its resident memory a minute after the work against after start. Beside
// the times, as a reference from the same run, the same photo work done by sharp in this process alone.
// Part of `npm run bench` (`npm run bench -- checklist` runs this part alone, building if needed).
import { readFile, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import sharp from "sharp";
import { startAppServer } from "#tests/app-server";
import { startStaffSession } from "#tests/staff-session";
import { uploadChecklistPhoto } from "#tests/tus-upload";
import type { BenchRow } from "./bench-table";
import { median, percentile } from "./percentile";

const PHOTOS = 10;
const RUNS = 3;
const AT_ONCE = 4;
const MB = 1024 * 1024;
/** Resident memory is read this long after the work, as the issue measures it at rest. */
const REST_MS = 60_000;
/** The pages timed while four checklists are processed. */
const PAGES = ["/", "/admin"];
/** The app's /metrics is read for its event loop's delay (prom-client's monitorEventLoopDelay series). */
const METRICS_TOKEN = "bench-checklist-metrics";

/** The goals (27). */
export const CHECKLIST_GOALS = {
  oncePhotosUpMs: 5000,
  oneRiseMb: 300,
  fourOverOne: 1.5,
  overSharpAlone: 1.2,
  pageP95Ms: 250,
  pageMaxMs: 1000,
  restOverStart: 2,
} as const;

export type ChecklistBenchResult = {
  photos: number;
  uploadMegabytes: number;
  submitToStoredPdfMs: number[];
  referenceSharpMs: number;
  startMemoryMb: number;
  /** The largest rise of one checklist's peak over the resident memory just before it. */
  oneRiseMb: number;
  /** The peak of the runs one after the other, over the resident memory after start. */
  inARowRiseMb: number;
  fourAtOnceMs: number;
  fourRiseMb: number;
  pages: Array<{ path: string; requests: number; p95Ms: number; maxMs: number }>;
  /** The app's event loop delay while the four were processed, as its /metrics reports it. */
  eventLoopDelay: { p99Ms: number; maxMs: number };
  restMemoryMb: number;
  /** The same checklist with its photos already up (tus, as the page sends them while it is filled): Submit alone. */
  submitOncePhotosUpMs: number[];
};

/** A 4000 x 3000 photo with grain, so it compresses like a real one (a few megabytes), not like a flat colour. */
export async function twelveMegapixelPhoto(index: number): Promise<Buffer> {
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

/** A figure of a process's memory from Linux's /proc, in megabytes: VmHWM (its peak) or VmRSS (now). */
async function memoryMb(pid: number, figure: "VmHWM" | "VmRSS"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(new RegExp(`^${figure}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}

/** Sets a process's peak (VmHWM) back to its resident memory now (Linux's clear_refs, value 5). */
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, "5");

/** A process's peak while `work` runs, and how far it rises over its resident memory just before. */
async function peakRiseMb<T>(pid: number, work: () => Promise<T>) {
  await resetPeak(pid);
  const before = await memoryMb(pid, "VmRSS");
  const value = await work();
  const peakMb = await memoryMb(pid, "VmHWM");
  return { peakMb, riseMb: peakMb - before, value };
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

/**
 * What the server does with the photos, done here by sharp alone, one after another: a turned photo encoded
 * upright, and a thumbnail of each (an upright JPEG is stored as sent, so its thumbnail is its only decode).
 */
async function referenceSharp(photos: Buffer[]): Promise<number> {
  const started = performance.now();
  for (const photo of photos) {
    const { orientation = 1 } = await sharp(photo).metadata();
    const stored =
      orientation === 1 ? photo : await sharp(photo).rotate().jpeg({ quality: 95, optimiseCoding: false }).toBuffer();
    await sharp(stored).rotate().resize(320, 240, { fit: "inside" }).jpeg({ quality: 95 }).toBuffer();
  }
  return performance.now() - started;
}

type EncodedBody = { bytes: Uint8Array<ArrayBuffer>; contentType: string };

/**
 * A form's body as it is sent. Encoded before the clock starts: fetch would otherwise encode 25 MB of multipart
 * while sending it, on the same two cores the app is measured on.
 */
async function encoded(form: FormData): Promise<EncodedBody> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    bytes: new Uint8Array(await request.arrayBuffer()),
    contentType: request.headers.get("content-type") ?? "multipart/form-data",
  };
}

/** Posts one checklist and waits for the answer that it is stored; its time in milliseconds. */
async function postChecklist(url: string, cookie: string, body: EncodedBody) {
  const started = performance.now();
  const response = await fetch(`${url}/admin/quick-links/estimate-checklist/submit`, {
    method: "POST",
    headers: { cookie, origin: url, "content-type": body.contentType },
    body: body.bytes,
  });
  const answer = (await response.json()) as { status: string };
  if (answer.status !== "success") throw new Error(`the checklist was not stored: ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

/** Sends the photos up first, as the page does while the form is filled, then times the Submit that names them. */
async function postChecklistOncePhotosUp(url: string, cookie: string, photos: Buffer[]): Promise<number> {
  const body = checklistBody([]);
  for (const [index, photo] of photos.entries()) {
    const { sent, location } = await uploadChecklistPhoto(
      url,
      { cookie, origin: url },
      photo,
      `IMG_${1000 + index}.jpg`,
    );
    if (sent.status !== 204) throw new Error(`the photo did not go up: ${sent.status} ${await sent.text()}`);
    body.append("photosUploaded", location.split("/").pop() ?? "");
  }
  return postChecklist(url, cookie, await encoded(body));
}

/**
 * The app's event loop delay since the last scrape, from its own /metrics: prom-client measures it with
 * node:perf_hooks' monitorEventLoopDelay and starts the histogram anew after each scrape.
 */
async function eventLoopDelay(url: string) {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const seconds = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return {
    p99Ms: seconds("nodejs_eventloop_lag_p99_seconds") * 1000,
    maxMs: seconds("nodejs_eventloop_lag_max_seconds") * 1000,
  };
}

/**
 * Times GETs of the pages, one after another in turn, until `done` settles: in a worker thread
 * (scripts/page-timer.mjs), so that this process's own work of sending the checklists is not counted.
 */
async function timePagesUntil(url: string, done: Promise<unknown>) {
  const timer = new Worker(new URL("./page-timer.mjs", import.meta.url), { workerData: { url, paths: PAGES } });
  const timed = new Promise<Record<string, number[]>>((resolve, reject) => {
    timer.once("message", resolve);
    timer.once("error", reject);
  });
  await done.finally(() => timer.postMessage("stop"));
  const timings = await timed;
  await timer.terminate();
  return PAGES.map((path) => {
    const sorted = (timings[path] ?? []).sort((a, b) => a - b);
    return { path, requests: sorted.length, p95Ms: percentile(sorted, 0.95), maxMs: sorted.at(-1) ?? Number.NaN };
  });
}

export async function benchChecklist(): Promise<ChecklistBenchResult> {
  const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, index) => twelveMegapixelPhoto(index)));
  const uploadMegabytes = photos.reduce((sum, photo) => sum + photo.byteLength, 0) / MB;
  const app = await startAppServer({ env: { METRICS_TOKEN } });
  try {
    const pid = app.process.pid;
    if (pid === undefined) throw new Error("the app has no process id");
    const { cookie } = await startStaffSession({ dataDir: app.dataDir, role: "staff", label: "bench" });
    const startMemoryMb = await memoryMb(pid, "VmRSS");
    // Each checklist's rise is from the resident memory just before it, as the four at once are measured: what
    // the one before left resident, until the collection after a quiet moment, is not its rise.
    const runs: Awaited<ReturnType<typeof peakRiseMb<number>>>[] = [];
    for (let run = 0; run < RUNS; run++) {
      const body = await encoded(checklistBody(photos));
      runs.push(await peakRiseMb(pid, () => postChecklist(app.url, cookie, body)));
    }
    const inARowRiseMb = Math.max(...runs.map((run) => run.peakMb)) - startMemoryMb;
    const four = await peakRiseMb(pid, async () => {
      const bodies = await Promise.all(Array.from({ length: AT_ONCE }, () => encoded(checklistBody(photos))));
      await eventLoopDelay(app.url);
      const started = performance.now();
      const all = Promise.all(bodies.map((body) => postChecklist(app.url, cookie, body)));
      const pages = await timePagesUntil(
        app.url,
        all.catch(() => undefined),
      );
      await all;
      return { pages, fourAtOnceMs: performance.now() - started, eventLoopDelay: await eventLoopDelay(app.url) };
    });
    await sleep(REST_MS);
    const restMemoryMb = await memoryMb(pid, "VmRSS");
    const submitOncePhotosUpMs: number[] = [];
    for (let run = 0; run < RUNS; run++)
      submitOncePhotosUpMs.push(await postChecklistOncePhotosUp(app.url, cookie, photos));
    const referenceSharpMs = await referenceSharp(photos);
    return {
      photos: PHOTOS,
      uploadMegabytes,
      submitToStoredPdfMs: runs.map((run) => run.value),
      referenceSharpMs,
      startMemoryMb,
      oneRiseMb: Math.max(...runs.map((run) => run.riseMb)),
      inARowRiseMb,
      fourAtOnceMs: four.value.fourAtOnceMs,
      fourRiseMb: four.riseMb,
      pages: four.value.pages,
      eventLoopDelay: four.value.eventLoopDelay,
      restMemoryMb,
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
  console.log(
    `Server memory: ${result.startMemoryMb.toFixed(0)} MB resident after start; peak rise ` +
      `${result.oneRiseMb.toFixed(0)} MB for one checklist (${result.inARowRiseMb.toFixed(0)} MB over the start for ` +
      `${result.submitToStoredPdfMs.length} in a row), ${result.fourRiseMb.toFixed(0)} MB for ${AT_ONCE} at once ` +
      `(done in ${(result.fourAtOnceMs / 1000).toFixed(1)} s); ${result.restMemoryMb.toFixed(0)} MB resident ` +
      `${REST_MS / 1000} s after`,
  );
  for (const page of result.pages) {
    console.log(
      `While ${AT_ONCE} are processed: GET ${page.path} ${page.requests} times, p95 ${page.p95Ms.toFixed(0)} ms, ` +
        `max ${page.maxMs.toFixed(0)} ms`,
    );
  }
  console.log(
    `While ${AT_ONCE} are processed: the app's event loop delay p99 ${result.eventLoopDelay.p99Ms.toFixed(0)} ms, ` +
      `max ${result.eventLoopDelay.maxMs.toFixed(0)} ms`,
  );
}

/** The summary table's rows: each figure beside its reference and the goal. */
export function checklistBenchRows(result: ChecklistBenchResult): BenchRow[] {
  const middle = median(result.submitToStoredPdfMs);
  const mb = (value: number) => `${value.toFixed(0)} MB`;
  const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
  return [
    {
      measure: "checklist (10 x 12 MP): peak memory rise, one",
      ours: mb(result.oneRiseMb),
      reference: "",
      goal: `<= ${CHECKLIST_GOALS.oneRiseMb} MB`,
      met: result.oneRiseMb <= CHECKLIST_GOALS.oneRiseMb,
    },
    {
      measure: `checklist: peak memory rise, ${AT_ONCE} at once`,
      ours: mb(result.fourRiseMb),
      reference: `one: ${mb(result.oneRiseMb)}`,
      ratio: result.fourRiseMb / result.oneRiseMb,
      goal: `<= ${CHECKLIST_GOALS.fourOverOne} x one`,
      met: result.fourRiseMb <= CHECKLIST_GOALS.fourOverOne * result.oneRiseMb,
    },
    {
      measure: "checklist: submit to stored PDF (median)",
      ours: seconds(middle),
      reference: `sharp alone ${seconds(result.referenceSharpMs)}`,
      ratio: middle / result.referenceSharpMs,
      goal: `<= ${CHECKLIST_GOALS.overSharpAlone} x sharp alone`,
      met: middle <= CHECKLIST_GOALS.overSharpAlone * result.referenceSharpMs,
    },
    ...result.pages.map((page) => ({
      measure: `GET ${page.path} while ${AT_ONCE} checklists are processed`,
      ours: `p95 ${page.p95Ms.toFixed(0)} ms, max ${page.maxMs.toFixed(0)} ms`,
      reference: "",
      goal: `p95 < ${CHECKLIST_GOALS.pageP95Ms} ms, none over ${CHECKLIST_GOALS.pageMaxMs} ms`,
      met: page.p95Ms < CHECKLIST_GOALS.pageP95Ms && page.maxMs <= CHECKLIST_GOALS.pageMaxMs,
    })),
    {
      measure: `app's event loop delay while ${AT_ONCE} checklists are processed`,
      ours: `p99 ${result.eventLoopDelay.p99Ms.toFixed(0)} ms, max ${result.eventLoopDelay.maxMs.toFixed(0)} ms`,
      reference: "",
      goal: `max < ${CHECKLIST_GOALS.pageMaxMs} ms`,
      met: result.eventLoopDelay.maxMs < CHECKLIST_GOALS.pageMaxMs,
    },
    {
      measure: "checklist: Submit to success once the photos are up (median)",
      ours: seconds(median(result.submitOncePhotosUpMs)),
      reference: `photos in the post: ${seconds(middle)}`,
      goal: `< ${seconds(CHECKLIST_GOALS.oncePhotosUpMs)}`,
      met: median(result.submitOncePhotosUpMs) < CHECKLIST_GOALS.oncePhotosUpMs,
    },
    {
      measure: `checklist: resident memory ${REST_MS / 1000} s after`,
      ours: mb(result.restMemoryMb),
      reference: `after start ${mb(result.startMemoryMb)}`,
      ratio: result.restMemoryMb / result.startMemoryMb,
      goal: `<= ${CHECKLIST_GOALS.restOverStart} x after start`,
      met: result.restMemoryMb <= CHECKLIST_GOALS.restOverStart * result.startMemoryMb,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printChecklistBench(await benchChecklist());
}
