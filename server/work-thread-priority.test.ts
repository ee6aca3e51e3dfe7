import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { photoWorkTasks } from "../app/services/photos/clean-photo.server";
import { inWorker, workPool } from "../app/services/work-pool/work-pool.server";
import { processThreads, WORK_NICENESS } from "./work-thread-priority";

const config = { PHOTO_WORKERS: 1, PHOTO_QUEUE_LIMIT: 4 };
afterAll(() => workPool(config).destroy());

describe("photo work's priority", () => {
  it("leaves the thread answering the pages at its own priority and puts libvips's threads below it", async () => {
    // A turned photo: decoded whole and encoded again, on libvips's threads.
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#6b7f5a" } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const caps = { photoPixels: 50e6, submissionPixels: 50e6, submissionPixelsLeft: 50e6 };
    for (let run = 0; run < 2; run++) {
      const cleaned = await inWorker(
        config,
        photoWorkTasks.cleanPhotoWithThumbnail,
        { fileName: "turned.jpg", contentType: "image/jpeg", content: new Uint8Array(photo) },
        { width: 320, height: 240 },
        caps,
      );
      expect(cleaned.ok).toBe(true);
    }
    const threads = processThreads();
    const libvips = threads.filter((thread) => thread.name === "libvips worker");
    expect(libvips.length).toBeGreaterThan(0);
    expect(libvips.filter((thread) => thread.niceness < WORK_NICENESS)).toEqual([]);
    expect(threads.find((thread) => thread.tid === process.pid)?.niceness).toBe(0);
  });
});
