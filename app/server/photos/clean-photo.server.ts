import sharp from "sharp";
import { DecodeTimeoutError, decodeHeic } from "./heic-decoder.server";
import { jpegWithoutMetadata } from "./jpeg-metadata.server";

// Each photo is decoded once and never again: libvips's operation cache would only hold on to its pixels.
sharp.cache(false);

/** The spec's image time-out: a photo that takes longer to decode is left out with a note. */
export const PHOTO_DECODE_TIMEOUT_MS = 5_000;

// About 100 megapixels: any phone photo, but not a decompression bomb.
const MAX_INPUT_PIXELS = 100_000_000;

/** An uploaded photo: its name as sent, the type its bytes showed, and its bytes. */
export type PhotoFile = { fileName: string; contentType: string; content: Uint8Array };

export type CleanedPhoto<Photo extends PhotoFile> = { ok: true; file: Photo } | { ok: false; reason: string };

/**
 * A photo as it is stored: upright (its orientation applied to the pixels), with every piece of metadata
 * removed but its colour profile, above all its GPS position, so a forwarded site photo never tells where
 * the client's site is. Only what must change is re-encoded, so a photo is never stored larger for no gain:
 * an upright JPEG loses its metadata segments with its compressed pixels untouched; an upright PNG or WebP
 * without metadata is kept as sent; a turned one, or a PNG or WebP with metadata, is encoded again in its format
 * (JPEG and WebP at quality 95). HEIC, which sharp cannot write, is stored as a JPEG of quality 95 with its
 * name changed to match. A photo that cannot be decoded (corrupt, or past the time-out) is not stored, since
 * its metadata could not be removed.
 */
export async function cleanPhoto<Photo extends PhotoFile>(photo: Photo): Promise<CleanedPhoto<Photo>> {
  try {
    const heif = photo.contentType === "image/heic" || photo.contentType === "image/heif";
    const content = heif
      ? await reencoded(await decodedHeicInput(photo.content), "image/jpeg")
      : await cleanedInFormat(photo);
    return {
      ok: true,
      file: {
        ...photo,
        content,
        ...(heif ? { contentType: "image/jpeg", fileName: `${photo.fileName.replace(/\.[^.]*$/, "")}.jpg` } : {}),
      },
    };
  } catch (error) {
    return { ok: false, reason: unprocessableReason(error) };
  }
}

/** A JPEG, PNG or WebP cleaned in its own format, re-encoded only when its pixels must turn or its metadata go. */
async function cleanedInFormat(photo: PhotoFile): Promise<Uint8Array> {
  const metadata = await sharp(photo.content, sharpOptions).metadata();
  const upright = (metadata.orientation ?? 1) === 1;
  const withoutMetadata = !metadata.exif && !metadata.xmp && !metadata.iptc && !metadata.comments?.length;
  const kept = !upright
    ? undefined
    : photo.contentType === "image/jpeg"
      ? jpegWithoutMetadata(photo.content)
      : withoutMetadata
        ? photo.content
        : undefined;
  if (!kept) return reencoded(sharp(photo.content, sharpOptions), photo.contentType);
  // Decoded once all the same, with the time-out: a photo that cannot be is not stored.
  await sharp(kept, sharpOptions)
    .timeout({ seconds: PHOTO_DECODE_TIMEOUT_MS / 1000 })
    .stats();
  return kept;
}

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
        : upright.jpeg({ quality: 95 });
  return new Uint8Array(await encoded.toBuffer());
}

export const sharpOptions = {
  failOn: "error",
  limitInputPixels: MAX_INPUT_PIXELS,
} as const satisfies sharp.SharpOptions;

async function decodedHeicInput(bytes: Uint8Array) {
  const image = await decodeHeic(bytes, PHOTO_DECODE_TIMEOUT_MS);
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

/** Why a photo could not be used, in words for the PDF's note. */
export function unprocessableReason(error: unknown): string {
  if (error instanceof DecodeTimeoutError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (/timeout/i.test(message)) return `decoding took longer than ${PHOTO_DECODE_TIMEOUT_MS / 1000} seconds`;
  if (/pixel limit/i.test(message)) return "the image is too large to decode";
  return "the file is damaged or not a readable image";
}
