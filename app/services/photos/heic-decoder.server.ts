import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const require = createRequire(import.meta.url);

export type DecodedImage = { width: number; height: number; data: Uint8Array };

export class DecodeTimeoutError extends Error {}

/** A photo with more pixels than it may have: refused before its pixels are decoded. */
export class PixelCapError extends Error {
  constructor(
    readonly pixels: number,
    readonly maxPixels: number,
  ) {
    super(`the image has ${pixels} pixels, more than ${maxPixels}`);
  }
}

/**
 * The worker's code, run with `eval` so it needs no file of its own in the server build; it loads heic-decode
 * (libheif in WebAssembly) by the path the main thread resolved, reads the first image's size, decodes it only
 * within `maxPixels` and hands its pixels back.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const decode = require(workerData.decoderPath);
decode.all({ buffer: workerData.bytes }).then(async ([first]) => {
  if (!first) throw new Error("no image in the file");
  const pixels = first.width * first.height;
  if (pixels > workerData.maxPixels) return parentPort.postMessage({ pixels });
  const image = await first.decode();
  const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  parentPort.postMessage({ width: image.width, height: image.height, data }, [data.buffer]);
}).catch((error) => parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) }));
`;

/**
 * Decodes a HEIC/HEIF photo (as iPhones take them) to upright RGBA pixels, in a worker thread: libheif runs
 * for about a second on a 12-megapixel photo, which on the main thread would hold up every other request.
 * sharp's prebuilt libvips cannot decode HEVC. A decode past `timeoutMs` is stopped and rejected with
 * DecodeTimeoutError, one past `maxPixels` with PixelCapError. libheif applies the file's rotation and
 * mirroring, so the pixels come back upright.
 */
export function decodeHeic(bytes: Uint8Array, timeoutMs: number, maxPixels: number): Promise<DecodedImage> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { decoderPath: require.resolve("heic-decode"), bytes, maxPixels },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new DecodeTimeoutError(`decoding took longer than ${timeoutMs / 1000} seconds`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once("message", (message: DecodedImage | { error: string } | { pixels: number }) => {
      finish();
      if ("error" in message) reject(new Error(message.error));
      else if ("pixels" in message) reject(new PixelCapError(message.pixels, maxPixels));
      else resolve(message);
    });
    worker.once("error", (error) => {
      finish();
      reject(error);
    });
  });
}
