import sharp from "sharp";
import { PHOTO_DECODE_TIMEOUT_MS, sharpOptions } from "./clean-photo.server";

export type Thumbnail = { jpeg: Uint8Array; width: number; height: number };

/**
 * A thumbnail of an upright photo, at most `width` by `height` pixels with its aspect kept, as a JPEG of
 * quality 95 on white (a transparent PNG has no black background in it).
 */
export async function photoThumbnail(photo: Uint8Array, width: number, height: number): Promise<Thumbnail> {
  const { data, info } = await sharp(photo, sharpOptions)
    .timeout({ seconds: PHOTO_DECODE_TIMEOUT_MS / 1000 })
    .rotate()
    .resize(width, height, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 95 })
    .toBuffer({ resolveWithObject: true });
  return { jpeg: new Uint8Array(data), width: info.width, height: info.height };
}
