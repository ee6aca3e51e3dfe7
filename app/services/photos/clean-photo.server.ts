import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { defineWorkTasks } from "../work-pool/work-task";
import { DecodeTimeoutError, decodeHeic, PixelCapError } from "./heic-decoder.server";
import { jpegWithoutMetadata } from "./jpeg-metadata.server";

// Each photo is decoded once and never again: libvips's operation cache would only hold on to its pixels.
sharp.cache(false);

/** The spec's image time-out: a photo that takes longer to decode is left out with a note. */
export const PHOTO_DECODE_TIMEOUT_MS = 5_000;

/**
 * An uploaded photo: its name as sent, the type its bytes showed, and its bytes, or the file the form's body reader
 * wrote them to (read here, in the worker, so that the thread answering pages never holds them).
 */
export type PhotoFile = { fileName: string; contentType: string } & (
  | { content: Uint8Array; path?: undefined }
  | { path: string; content?: undefined }
);

/** A cleaned photo as it is stored: its bytes and their SHA-256, made in the worker. */
type CleanedFile<Photo extends PhotoFile> = Omit<Photo, "content" | "path"> & { content: Uint8Array; sha256: string };

export type Thumbnail = { jpeg: Uint8Array; width: number; height: number };

/** The decode that checks a photo can be read, where no thumbnail is wanted: as small as a decode gets. */
const READ_CHECK_BOX = { width: 8, height: 8 };

/** How large a photo may be: its own pixels, and what is left of its submission's. */
export type PixelCaps = { photoPixels: number; submissionPixels: number; submissionPixelsLeft: number };

export type CleanedPhotoWithThumbnail<Photo extends PhotoFile> =
  | { ok: true; file: CleanedFile<Photo>; thumbnail: Thumbnail | undefined; pixels: number }
  | { ok: false; reason: string };

/**
 * A photo as it is stored: upright (its orientation applied to the pixels), with every piece of metadata
 * removed but its colour profile, above all its GPS position, so a forwarded site photo never tells where
 * the client's site is. Only what must change is re-encoded, so a photo is never stored larger for no gain:
 * an upright JPEG loses its metadata segments with its compressed pixels untouched; an upright PNG or WebP
 * without metadata is kept as sent; a turned one, or a PNG or WebP with metadata, is encoded again in its format
 * (JPEG and WebP at quality 95). HEIC, which sharp cannot write, is stored as a JPEG of quality 95 with its
 * name changed to match. A photo that cannot be decoded (corrupt, or past the time-out) is not stored, since
 * its metadata could not be removed.
 *
 * With a `box`, a thumbnail of at most its pixels, from one full decode at most: the thumbnail is decoded shrunk on
 * load (a JPEG at an eighth of its size), and its decode is the check that an upright JPEG kept as sent can be
 * read. A photo past its own pixel cap, or past what is left of its submission's, is refused before it is
 * decoded.
 */
export async function cleanPhotoWithThumbnail<Photo extends PhotoFile>(
  photo: Photo,
  box: { width: number; height: number } | undefined,
  caps: PixelCaps,
): Promise<CleanedPhotoWithThumbnail<Photo>> {
  try {
    const { path: _path, content: bytes, ...named } = await photoInMemory(photo);
    const cleaning = await cleaned({ ...named, content: bytes }, Math.min(caps.photoPixels, caps.submissionPixelsLeft));
    const content = await cleaning.bytes();
    // Without a thumbnail to make, the photo is still decoded once, shrunk: that is the check that it can be read.
    const thumbnail = await thumbnailOf(cleaning.thumbnailFrom(content), box ?? READ_CHECK_BOX);
    const sha256 = createHash("sha256").update(content).digest("hex");
    return {
      ok: true,
      file: { ...named, content, sha256, ...cleaning.renamed } as CleanedFile<Photo>,
      thumbnail: box ? thumbnail : undefined,
      pixels: cleaning.pixels,
    };
  } catch (error) {
    const overSubmission = error instanceof PixelCapError && error.pixels <= caps.photoPixels;
    return {
      ok: false,
      reason: overSubmission ? overSubmissionPixelsReason(caps.submissionPixels) : unprocessableReason(error),
    };
  }
}

type Cleaning = {
  bytes: () => Promise<Uint8Array>;
  renamed?: { contentType: string; fileName: string };
  pixels: number;
  /** Where the thumbnail is best made from: the decoded HEIC pixels, or the stored bytes shrunk on load. */
  thumbnailFrom: (stored: Uint8Array) => sharp.Sharp;
};

/** A photo whose bytes are in memory: what sharp and the HEIC decoder read. */
type PhotoInMemory = PhotoFile & { content: Uint8Array };

/** A photo's bytes in memory: read from its temporary file when the body reader left it on disk. */
export async function photoInMemory<Photo extends PhotoFile>(photo: Photo): Promise<Photo & PhotoInMemory> {
  if (photo.content) return photo as Photo & PhotoInMemory;
  return { ...photo, content: new Uint8Array(await readFile(photo.path as string)) };
}

const isHeic = (photo: PhotoFile) => photo.contentType === "image/heic" || photo.contentType === "image/heif";

/** sharp's reading of a photo's bytes: a damaged file is an error, and nothing past `maxPixels` is decoded. */
const readOptions = (maxPixels: number) =>
  ({ failOn: "error", limitInputPixels: maxPixels }) as const satisfies sharp.SharpOptions;

/** A photo's header, read without decoding its pixels; refused past `maxPixels`. */
async function headerWithin(
  photo: PhotoInMemory,
  maxPixels: number,
): Promise<{ metadata: sharp.Metadata; pixels: number }> {
  const metadata = await sharp(photo.content, { ...readOptions(maxPixels), limitInputPixels: false }).metadata();
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > maxPixels) throw new PixelCapError(pixels, maxPixels);
  return { metadata, pixels };
}

/** A HEIC's upright pixels, decoded in a thread of their own within `maxPixels`, as sharp's input. */
async function heicPixels(photo: PhotoInMemory, maxPixels: number) {
  const { data, width, height } = await decodeHeic(photo.content, PHOTO_DECODE_TIMEOUT_MS, maxPixels);
  return { read: () => sharp(data, { raw: { width, height, channels: 4 } }), width, height, pixels: width * height };
}

/**
 * A photo's pixels for making something new of them (a site photo's renditions): a HEIC decoded as the cleaning
 * decodes it, any other photo read from its bytes within `maxPixels`; `read()` gives them upright, in sRGB, with
 * no metadata carried to what is written from them, and within the photo time-out.
 */
export async function uprightPhotoPixels(
  photo: PhotoInMemory,
  maxPixels: number,
): Promise<{ read: () => sharp.Sharp; width: number; height: number }> {
  const timeout = { seconds: PHOTO_DECODE_TIMEOUT_MS / 1000 };
  if (isHeic(photo)) {
    const heic = await heicPixels(photo, maxPixels);
    return { read: () => heic.read().timeout(timeout).toColourspace("srgb"), width: heic.width, height: heic.height };
  }
  const { metadata } = await headerWithin(photo, maxPixels);
  const turned = (metadata.orientation ?? 1) >= 5;
  return {
    read: () => sharp(photo.content, readOptions(maxPixels)).rotate().timeout(timeout).toColourspace("srgb"),
    width: (turned ? metadata.height : metadata.width) ?? 0,
    height: (turned ? metadata.width : metadata.height) ?? 0,
  };
}

/** How a photo is cleaned, once its header (or a HEIC's image sizes) showed it within `maxPixels`. */
async function cleaned(photo: PhotoInMemory, maxPixels: number): Promise<Cleaning> {
  if (isHeic(photo)) {
    const heic = await heicPixels(photo, maxPixels);
    return {
      bytes: () => reencoded(heic.read(), "image/jpeg"),
      renamed: { contentType: "image/jpeg", fileName: `${photo.fileName.replace(/\.[^.]*$/, "")}.jpg` },
      pixels: heic.pixels,
      thumbnailFrom: heic.read,
    };
  }
  const options = readOptions(maxPixels);
  const { metadata, pixels } = await headerWithin(photo, maxPixels);
  const upright = (metadata.orientation ?? 1) === 1;
  const withoutMetadata = !metadata.exif && !metadata.xmp && !metadata.iptc && !metadata.comments?.length;
  const kept = !upright
    ? undefined
    : photo.contentType === "image/jpeg"
      ? jpegWithoutMetadata(photo.content)
      : withoutMetadata
        ? photo.content
        : undefined;
  const thumbnailFrom = (stored: Uint8Array) => sharp(stored, options);
  if (!kept) {
    return {
      bytes: () => reencoded(sharp(photo.content, options), photo.contentType),
      pixels,
      thumbnailFrom,
    };
  }
  return {
    bytes: async () => kept,
    pixels,
    thumbnailFrom,
  };
}

/**
 * A JPEG is written without optimised Huffman tables: optimising them keeps every coefficient of the whole
 * photo in memory for a second pass, about 55 MB more at the peak of a 12-megapixel photo and three times the
 * time, for a file about 12 % smaller (decision 0606).
 */
async function reencoded(input: sharp.Sharp, contentType: string): Promise<Uint8Array> {
  const upright = input
    .rotate()
    .keepIccProfile()
    .timeout({ seconds: PHOTO_DECODE_TIMEOUT_MS / 1000 });
  const encoded =
    contentType === "image/png"
      ? upright.png({ compressionLevel: 9 })
      : contentType === "image/webp"
        ? upright.webp({ quality: 95 })
        : upright.jpeg({ quality: 95, optimiseCoding: false });
  return new Uint8Array(await encoded.toBuffer());
}

/**
 * A thumbnail at most `box` pixels with its aspect kept, as a JPEG of quality 95 on white (a transparent PNG
 * has no black background in it).
 */
async function thumbnailOf(input: sharp.Sharp, box: { width: number; height: number }): Promise<Thumbnail> {
  const { data, info } = await input
    .timeout({ seconds: PHOTO_DECODE_TIMEOUT_MS / 1000 })
    .rotate()
    .resize(box.width, box.height, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 95 })
    .toBuffer({ resolveWithObject: true });
  return { jpeg: new Uint8Array(data), width: info.width, height: info.height };
}

/** Why a photo within its own cap is left out of a submission whose earlier photos used up its pixels. */
export const overSubmissionPixelsReason = (submissionPixels: number) =>
  `the photos before it already use the ${megapixels(submissionPixels)} megapixels one submission may have`;

const megapixels = (pixels: number) => (pixels / 1_000_000).toLocaleString("en-US", { maximumSignificantDigits: 3 });

/** Why a photo could not be used, in words for the PDF's note. */
export function unprocessableReason(error: unknown): string {
  if (error instanceof DecodeTimeoutError) return error.message;
  if (error instanceof PixelCapError)
    return `it has ${megapixels(error.pixels)} megapixels, more than the ${megapixels(error.maxPixels)} a photo may have`;
  const message = error instanceof Error ? error.message : String(error);
  if (/timeout/i.test(message)) return `decoding took longer than ${PHOTO_DECODE_TIMEOUT_MS / 1000} seconds`;
  if (/pixel limit/i.test(message)) return "the image is too large to decode";
  return "the file is damaged or not a readable image";
}

/** The photo work the pool's workers run (server/work-worker.ts). */
export const photoWorkTasks = defineWorkTasks({ cleanPhotoWithThumbnail });
