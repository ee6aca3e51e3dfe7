#!/usr/bin/env node
// Responsive image pipeline.
//
// Every .svg/.png/.jpg/.jpeg/.webp file in assets/images/ is a source; its file
// stem is the image name. For each width in app/content/image-ladder.json that
// is <= the source's intrinsic width (or the smallest ladder width when none
// is), this writes public/images/<name>-<width>.{avif,webp,jpg}.
//
// Incremental by content: assets/image-renditions.json records, for each
// source, a hash of its bytes, the ladder, this script and app/content/image-renditions.mjs. A source is skipped
// when its hash is the recorded one and all its outputs exist. The outputs are
// committed with the record, so a fresh clone (whose files all have new
// modification times) renders nothing: rendering all of them takes minutes on
// a small machine. Outputs that no source (or ladder width) accounts for any
// more are deleted.
//
// Usage: node scripts/build-images.mjs

import { createHash } from "node:crypto";
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { isOpaque, RENDITION_FORMATS, renditionFileName, renditionWidths } from "../app/content/image-renditions.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT_PATH = fileURLToPath(import.meta.url);
const RENDITIONS_PATH = fileURLToPath(new URL("../app/content/image-renditions.mjs", import.meta.url));
const SOURCE_DIR = path.join(ROOT, "assets", "images");
const OUTPUT_DIR = path.join(ROOT, "public", "images");
const LADDER_PATH = path.join(ROOT, "app", "content", "image-ladder.json");
const RECORD_PATH = path.join(ROOT, "assets", "image-renditions.json");

const SOURCE_EXTENSIONS = new Set([".svg", ".png", ".jpg", ".jpeg", ".webp"]);
const CONCURRENCY = 2;
/** sharp's density for "1 SVG user unit = 1 output pixel". */
const BASE_DENSITY = 72;

/** Matches generated files: <name>-<width>.<ext>. */
const OUTPUT_PATTERN = /^(.+)-(\d+)\.(avif|webp|jpg)$/;

class PipelineError extends Error {}

const rel = (p) => path.relative(ROOT, p) || ".";

async function readLadder() {
  let raw;
  try {
    raw = JSON.parse(await readFile(LADDER_PATH, "utf8"));
  } catch (err) {
    throw new PipelineError(`cannot read width ladder ${rel(LADDER_PATH)}: ${err.message}`);
  }
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((w) => Number.isInteger(w) && w > 0)) {
    throw new PipelineError(
      `${rel(LADDER_PATH)} must be a non-empty JSON array of positive integers, got ${JSON.stringify(raw)}`,
    );
  }
  return [...new Set(raw)].sort((a, b) => a - b);
}

async function listSources() {
  let entries;
  try {
    entries = await readdir(SOURCE_DIR, { withFileTypes: true });
  } catch (err) {
    throw new PipelineError(`cannot read source directory ${rel(SOURCE_DIR)}: ${err.message}`);
  }
  const byName = new Map();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const ext = path.extname(entry.name).toLowerCase();
    if (!SOURCE_EXTENSIONS.has(ext)) continue;
    const name = path.basename(entry.name, path.extname(entry.name));
    const files = byName.get(name) ?? [];
    files.push(entry.name);
    byName.set(name, files);
  }
  const duplicates = [...byName].filter(([, files]) => files.length > 1);
  if (duplicates.length > 0) {
    const detail = duplicates.map(([name, files]) => `  "${name}": ${files.sort().join(", ")}`);
    throw new PipelineError(
      `several files in ${rel(SOURCE_DIR)} share an image name (file stem); keep one of each:\n${detail.join("\n")}`,
    );
  }
  return [...byName]
    .map(([name, [file]]) => ({
      name,
      file: path.join(SOURCE_DIR, file),
      isSvg: path.extname(file).toLowerCase() === ".svg",
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Intrinsic (display-oriented) width; for SVG this is the width attribute. */
async function intrinsicWidth(source) {
  const meta = await sharp(source.file).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  if (!width) throw new Error("could not determine the image width");
  return width;
}

const sha256 = (...parts) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

async function allExist(files) {
  for (const file of files) {
    try {
      await access(file);
    } catch {
      return false;
    }
  }
  return true;
}

async function readRecord() {
  try {
    return JSON.parse(await readFile(RECORD_PATH, "utf8"));
  } catch (err) {
    if (err.code === "ENOENT") return {};
    throw new PipelineError(`cannot read ${rel(RECORD_PATH)}: ${err.message}`);
  }
}

async function writeAtomically(file, buffer) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await writeFile(tmp, buffer);
  await rename(tmp, file);
}

async function render(source, intrinsic, width) {
  // Rasterise vectors directly at the target width instead of upscaling a
  // small raster: density scales SVG user units to output pixels.
  const options = source.isSvg ? { density: Math.min(100000, Math.max(1, (BASE_DENSITY * width) / intrinsic)) } : {};
  // Decode and resize once, then encode every format from the same pixels.
  const { data, info } = await sharp(source.file, options)
    .rotate()
    .resize({ width, kernel: "lanczos3" })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  // Drop the alpha channel of opaque images (SVGs always rasterise to RGBA).
  // When the target size is not an exact multiple of the SVG's, librsvg
  // leaves a partially covered, semi-transparent 1px edge; ignore it.
  const opaque = isOpaque(data, info, source.isSvg ? 1 : 0);
  for (const format of RENDITION_FORMATS) {
    let image = sharp(data, raw);
    if (opaque) image = image.removeAlpha();
    const buffer = await format.encode(image).toBuffer();
    await writeAtomically(path.join(OUTPUT_DIR, renditionFileName(source.name, width, format.ext)), buffer);
  }
}

async function processSource(source, ladder, settingsHash, recorded) {
  const intrinsic = await intrinsicWidth(source);
  const widths = renditionWidths(ladder, intrinsic);
  const outputs = widths.flatMap((w) =>
    RENDITION_FORMATS.map((f) => path.join(OUTPUT_DIR, renditionFileName(source.name, w, f.ext))),
  );
  const hash = sha256(settingsHash, await readFile(source.file));
  if (recorded === hash && (await allExist(outputs))) return { outputs, hash, rebuilt: false };
  for (const width of widths) await render(source, intrinsic, width);
  return { outputs, hash, rebuilt: true };
}

/** Runs `task` over `items` with at most `limit` in flight; never rejects. */
async function mapBounded(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await task(items[index]) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Deletes generated files (and stray temp files) that no current source produces. */
async function removeStale(expected) {
  let removed = 0;
  for (const entry of await readdir(OUTPUT_DIR, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const isStrayTmp = entry.name.startsWith(".") && entry.name.endsWith(".tmp");
    if (!isStrayTmp && (!OUTPUT_PATTERN.test(entry.name) || expected.has(entry.name))) continue;
    await rm(path.join(OUTPUT_DIR, entry.name), { force: true });
    if (!isStrayTmp) removed++;
  }
  return removed;
}

async function main() {
  const ladder = await readLadder();
  const sources = await listSources();
  const record = await readRecord();
  // A change to the ladder or to how renditions are made (this script, the formats) renders every source again.
  const settingsHash = sha256(await readFile(SCRIPT_PATH), await readFile(RENDITIONS_PATH), JSON.stringify(ladder));
  await mkdir(OUTPUT_DIR, { recursive: true });

  sharp.cache(false);
  const results = await mapBounded(sources, CONCURRENCY, (source) =>
    processSource(source, ladder, settingsHash, record[source.name]),
  );

  const failures = [];
  const expected = new Set();
  let rebuilt = 0;
  let upToDate = 0;
  // What was rendered, by source; a source that failed keeps its earlier entry, with its earlier outputs.
  const nextRecord = {};
  results.forEach((result, i) => {
    const source = sources[i];
    if (!result.ok) {
      if (record[source.name]) nextRecord[source.name] = record[source.name];
      failures.push(`  ${rel(source.file)}: ${result.error?.message ?? result.error}`);
      // Keep whatever this source produced before, so one bad file does not
      // delete its previous outputs.
      for (const w of ladder) {
        for (const f of RENDITION_FORMATS) expected.add(renditionFileName(source.name, w, f.ext));
      }
      return;
    }
    for (const file of result.value.outputs) expected.add(path.basename(file));
    nextRecord[source.name] = result.value.hash;
    if (result.value.rebuilt) rebuilt++;
    else upToDate++;
  });

  const removed = await removeStale(expected);
  const recordText = `${JSON.stringify(nextRecord, null, 2)}\n`;
  if (recordText !== `${JSON.stringify(record, null, 2)}\n`) await writeAtomically(RECORD_PATH, recordText);
  const parts = [`${sources.length} sources`, `${rebuilt} rebuilt`, `${upToDate} up to date`];
  if (removed > 0) parts.push(`${removed} stale file${removed === 1 ? "" : "s"} removed`);
  if (failures.length > 0) parts.push(`${failures.length} failed`);
  console.log(`images: ${parts.join(", ")}`);

  if (failures.length > 0) {
    console.error(`images: failed to process ${failures.length} source(s):\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`images: ${err instanceof PipelineError ? err.message : (err?.stack ?? err)}`);
  process.exitCode = 1;
});
