import { createHash } from "node:crypto";
import { and, eq, inArray, lt } from "drizzle-orm";
import { uploadedPhotoNames, withDefaults } from "~/content/site-content";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import {
  type SitePhotoFormat,
  siteContentDraft,
  siteContentVersions,
  sitePhotoRenditions,
  sitePhotos,
} from "../db/schema.server";
import type { PhotoFile } from "../photos/clean-photo.server";
import { movingToWorker } from "../work-pool/work-pool.server";
import { type SitePhotoRendition, type SlotSize, sitePhotoWorkTasks } from "./render-site-photo.server";

/** What a site photo's name looks like: `site-` and 12 hex digits. A build image's name never does. */
const SITE_PHOTO_NAME = /^site-[0-9a-f]{12}$/;

export const isSitePhotoName = (name: string) => SITE_PHOTO_NAME.test(name);

/** One rendition's file name, `<name>-<width>.<format>`, read back into its parts. */
const RENDITION_FILE = /^(site-[0-9a-f]{12})-(\d+)\.(avif|webp|jpg)$/;

export type StoredSitePhoto = { ok: true; name: string; width: number; height: number } | { ok: false; reason: string };

/** The name of a photo's renditions: the same renditions for the same slot size are the same photo. */
function sitePhotoName(slot: SlotSize, renditions: readonly SitePhotoRendition[]): string {
  const hash = createHash("sha256").update(`${slot.width}x${slot.height}`);
  for (const rendition of renditions) hash.update(rendition.content);
  return `site-${hash.digest("hex").slice(0, 12)}`;
}

/**
 * An uploaded photo for an image slot, made into its renditions in the work pool (its bytes move there) and stored
 * with who sent it; its name is what the site's content names it by. A photo that cannot be read is not stored,
 * and the answer says why. Throws WorkPoolFull when every worker is busy and the queue is full.
 */
export async function storeSitePhoto(
  db: Database,
  config: Pick<Config, "PHOTO_WORKERS" | "PHOTO_QUEUE_LIMIT" | "PHOTO_MAX_PIXELS">,
  photo: PhotoFile,
  slot: SlotSize,
  uploadedById: number,
): Promise<StoredSitePhoto> {
  const rendered = await movingToWorker(
    config,
    photo.content ? [photo.content] : [],
    sitePhotoWorkTasks.renderSitePhoto,
    photo,
    slot,
    config.PHOTO_MAX_PIXELS,
  );
  if (!rendered.ok) return rendered;
  const name = sitePhotoName(slot, rendered.renditions);
  await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(sitePhotos)
      .values({ name, ...slot, sourceWidth: rendered.sourceWidth, sourceHeight: rendered.sourceHeight, uploadedById })
      .onConflictDoNothing({ target: sitePhotos.name })
      .returning({ id: sitePhotos.id });
    // Sent before: its renditions are stored already.
    if (!inserted) return;
    await tx.insert(sitePhotoRenditions).values(
      rendered.renditions.map((rendition) => ({
        photoId: inserted.id,
        width: rendition.width,
        height: rendition.height,
        format: rendition.format,
        content: Buffer.from(rendition.content.buffer, rendition.content.byteOffset, rendition.content.byteLength),
      })),
    );
  });
  return { ok: true, name, ...slot };
}

/** Each stored site photo's renditions among `names`, one at a time (a photo's files are a few megabytes). */
export async function* sitePhotoRenditionsOf(
  db: Database,
  names: readonly string[],
): AsyncGenerator<{ name: string; width: number; format: SitePhotoFormat; content: Buffer }> {
  for (const name of new Set(names.filter(isSitePhotoName))) {
    const rows = await db
      .select({
        width: sitePhotoRenditions.width,
        format: sitePhotoRenditions.format,
        content: sitePhotoRenditions.content,
      })
      .from(sitePhotoRenditions)
      .innerJoin(sitePhotos, eq(sitePhotos.id, sitePhotoRenditions.photoId))
      .where(eq(sitePhotos.name, name));
    for (const row of rows) yield { name, ...row };
  }
}

/** One rendition by its file name (`site-0123456789ab-960.webp`), or undefined when there is none. */
export async function sitePhotoRendition(
  db: Database,
  fileName: string,
): Promise<{ format: SitePhotoFormat; content: Buffer } | undefined> {
  const [, name, width, format] = RENDITION_FILE.exec(fileName) ?? [];
  if (!name || !width || !format) return undefined;
  const [row] = await db
    .select({ format: sitePhotoRenditions.format, content: sitePhotoRenditions.content })
    .from(sitePhotoRenditions)
    .innerJoin(sitePhotos, eq(sitePhotos.id, sitePhotoRenditions.photoId))
    .where(
      and(
        eq(sitePhotos.name, name),
        eq(sitePhotoRenditions.width, Number(width)),
        eq(sitePhotoRenditions.format, format as SitePhotoFormat),
      ),
    );
  return row;
}

/** How long an uploaded photo that nothing names is kept: an admin may be choosing it in an unsaved edit. */
const UNUSED_SITE_PHOTO_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the uploaded photos (and their renditions) that no version and no draft names and that were uploaded
 * more than a day ago: photos chosen and then replaced before a publish. Resolves with how many went.
 */
export async function deleteUnusedSitePhotos(db: Database, now = new Date()): Promise<number> {
  const [versions, drafts] = await Promise.all([
    db.select({ content: siteContentVersions.content }).from(siteContentVersions),
    db.select({ content: siteContentDraft.content }).from(siteContentDraft),
  ]);
  const named = new Set([...versions, ...drafts].flatMap((row) => uploadedPhotoNames(withDefaults(row.content))));
  const old = await db
    .select({ id: sitePhotos.id, name: sitePhotos.name })
    .from(sitePhotos)
    .where(lt(sitePhotos.uploadedAt, new Date(now.getTime() - UNUSED_SITE_PHOTO_KEPT_MS)));
  const unused = old.filter((photo) => !named.has(photo.name)).map((photo) => photo.id);
  if (unused.length > 0) await db.delete(sitePhotos).where(inArray(sitePhotos.id, unused));
  return unused.length;
}
