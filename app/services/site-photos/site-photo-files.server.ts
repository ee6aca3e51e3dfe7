import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { renditionFileName } from "~/content/image-renditions.mjs";
import type { Database } from "../db/database.server";
import { sitePhotoRenditionsOf } from "./site-photo-store.server";

/**
 * Writes the files of each uploaded site photo among `imageNames` into `imagesDir` as the build writes its own
 * (`<name>-<width>.<avif|webp|jpg>`), each under a temporary name first so a page never finds half a file. The
 * build's images' names are skipped: their files are there already.
 */
export async function writeSitePhotoFiles(db: Database, imageNames: string[], imagesDir: string): Promise<void> {
  await mkdir(imagesDir, { recursive: true });
  for await (const rendition of sitePhotoRenditionsOf(db, imageNames)) {
    const file = path.join(imagesDir, renditionFileName(rendition.name, rendition.width, rendition.format));
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, rendition.content);
    await rename(temporary, file);
  }
}
