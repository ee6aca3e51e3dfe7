import sharp from "sharp";
import ladder from "~/content/image-ladder.json";
import { isOpaque, RENDITION_FORMATS, renditionWidths } from "~/content/image-renditions.mjs";
import type { SitePhotoFormat } from "../db/schema.server";
import { type PhotoFile, photoInMemory, unprocessableReason, uprightPhotoPixels } from "../photos/clean-photo.server";
import { defineWorkTasks } from "../work-pool/work-task";

/** An image slot's fixed size (its ImageRef's width and height): every rendition has its shape. */
export type SlotSize = { width: number; height: number };

export type SitePhotoRendition = { width: number; height: number; format: SitePhotoFormat; content: Uint8Array };

export type RenderedSitePhoto =
  | { ok: true; renditions: SitePhotoRendition[]; sourceWidth: number; sourceHeight: number }
  | { ok: false; reason: string };

/**
 * An uploaded photo made into a slot's renditions, as the build makes its own images' (scripts/build-images.mjs):
 * the ladder's widths up to the slot's, each in every format of app/content/image-renditions.mjs with its
 * settings. The photo is decoded once (a HEIC as the cleaning decodes it), turned upright, cut to the slot's shape
 * around its centre and scaled to the slot's size (up, for a smaller photo, so the page's reserved box and srcset
 * hold); every rendition is encoded from those pixels, so no metadata of the photo (GPS, camera, time) reaches
 * them. Run in the work pool.
 */
export async function renderSitePhoto(photo: PhotoFile, slot: SlotSize, maxPixels: number): Promise<RenderedSitePhoto> {
  try {
    const source = await uprightPhotoPixels(await photoInMemory(photo), maxPixels);
    const { data, info } = await source
      .read()
      .resize(slot.width, slot.height, { fit: "cover", position: "centre", kernel: "lanczos3" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const opaque = isOpaque(data, info, 0);
    const renditions: SitePhotoRendition[] = [];
    for (const width of renditionWidths(ladder, slot.width)) {
      const height = Math.round((width * slot.height) / slot.width);
      for (const format of RENDITION_FORMATS) {
        let image = sharp(data, raw);
        if (width !== slot.width) image = image.resize(width, height, { kernel: "lanczos3" });
        if (opaque) image = image.removeAlpha();
        const content = new Uint8Array(await format.encode(image).toBuffer());
        renditions.push({ width, height, format: format.ext, content });
      }
    }
    return { ok: true, renditions, sourceWidth: source.width, sourceHeight: source.height };
  } catch (error) {
    return { ok: false, reason: unprocessableReason(error) };
  }
}

/** The site photos' work the pool's workers run (server/work-worker.ts). */
export const sitePhotoWorkTasks = defineWorkTasks({ renderSitePhoto });
