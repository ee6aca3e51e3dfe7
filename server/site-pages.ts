import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { type SiteContent, uploadedPhotoNames } from "../app/content/site-content";
import type { Database } from "../app/services/db/database.server";
import type { PublishedSiteContent } from "../app/services/site-content/site-content-store.server";
import { precompress } from "../scripts/precompress.mjs";
import { hashContentSecurityPolicy } from "./content-security-policy";
import { loadStaticFiles, type StaticFile } from "./static-files";

/*
 * The public pages as static files, made again with each published version of the site's content: rendered by
 * the built app's own request handler exactly as the build's prerender renders them (the same requests, the
 * same .data files), compressed, and swapped in for the build's pages in the static answerer's table. Each
 * version has its folder under DATA_DIR/site-pages, made whole under a temporary name and then renamed; an
 * instance that starts makes the published version's unless it is there. The previous version's folder is kept
 * for instances on the same DATA_DIR that have not loaded it yet.
 */

/** What rendering a page needs besides the content: the server's services, as loaders get them. */
export type SitePageServices = {
  serverBuild: ServerBuild;
  /** The load context of a page rendered outside any request (no nonce: its scripts are allowed by hash). */
  contextWith: (content: SiteContent) => RouterContextProvider;
};

/**
 * Part B's step that writes the uploaded photos' renditions into a version's images folder
 * (app/services/site-photos/site-photo-files.server.ts, `writeSitePhotoFiles`).
 */
export type WriteSitePhotoFiles = (db: Database, imageNames: string[], imagesDir: string) => Promise<void>;

const PRERENDER_ORIGIN = "http://localhost";

/** A page's answer as the preview shows it: the public page as served, with the policy that allows its scripts. */
export function sitePageRenderer({ serverBuild, contextWith }: SitePageServices, styleSources: readonly string[]) {
  const handle = createRequestHandler(serverBuild, "production");
  return async (pagePath: string, content: SiteContent): Promise<Response> => {
    const page = await handle(new Request(new URL(pagePath, PRERENDER_ORIGIN)), contextWith(content));
    const html = await page.text();
    const headers = new Headers(page.headers);
    headers.set("Content-Security-Policy", hashContentSecurityPolicy(html, styleSources));
    return new Response(html, { status: page.status, headers });
  };
}

/** The file the prerender writes a page's data to: `/` is /_root.data, `/lighting` is /lighting.data. */
const dataPathOf = (pagePath: string) => (pagePath === "/" ? "/_root.data" : `${pagePath}.data`);

async function writeFileIn(dir: string, urlPath: string, content: string): Promise<void> {
  const file = path.join(dir, ...urlPath.split("/"));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Renders every page the build prerenders into `dir`, as the prerender does: its data, then its HTML with it. */
async function renderPrerenderedPages(services: SitePageServices, content: SiteContent, dir: string) {
  const handle = createRequestHandler(services.serverBuild, "production");
  const render = async (urlPath: string, init?: RequestInit) => {
    const answer = await handle(new Request(new URL(urlPath, PRERENDER_ORIGIN), init), services.contextWith(content));
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`Rendering ${urlPath} for the published site answered ${answer.status}`);
    return text;
  };
  for (const pagePath of services.serverBuild.prerender) {
    const data = await render(dataPathOf(pagePath));
    await writeFileIn(dir, dataPathOf(pagePath), data);
    const html = await render(`${pagePath.replace(/\/$/, "")}/`, {
      headers: { "X-React-Router-Prerender-Data": encodeURI(data) },
    });
    await writeFileIn(dir, `${pagePath.replace(/\/$/, "")}/index.html`, html);
  }
}

/**
 * Whether a folder under DATA_DIR/site-pages may go once this instance serves `servedVersionId`: only versions
 * older than the one before it. Instances sharing a DATA_DIR hear of a publish at different moments, so another
 * may be loading the previous version's folder, or a newer one, right now; a half-made folder is its maker's.
 */
export function isDroppableVersionFolder(folderName: string, servedVersionId: number): boolean {
  const versionId = /^(\d+)-[0-9a-f]+$/.exec(folderName)?.[1];
  return versionId !== undefined && Number(versionId) < servedVersionId - 1;
}

export type SitePagePublisher = {
  /** Makes the static pages of this version (when this instance has not yet) and serves them. */
  serve: (published: PublishedSiteContent) => Promise<void>;
};

/**
 * Serves each published version's pages in place of the build's: `files` is the static answerer's table, whose
 * entries for the pages (and the uploaded photos) are replaced in one synchronous step.
 */
export function sitePagePublisher(options: {
  services: SitePageServices;
  db: Database;
  dataDir: string;
  files: Map<string, StaticFile>;
  styleSources: readonly string[];
  logger: Logger;
  writeSitePhotoFiles?: WriteSitePhotoFiles;
}): SitePagePublisher {
  const pagesDir = path.resolve(options.dataDir, "site-pages");

  /**
   * A version's folder, named by its content and the build too: a new build renders the pages anew, and so does
   * a restore to an earlier moment, after which a version id may come again with other content.
   */
  const folderNameOf = (published: PublishedSiteContent & { versionId: number }) => {
    const fingerprint = createHash("sha256")
      .update(options.services.serverBuild.assets.version)
      .update(JSON.stringify(published.content))
      .digest("hex");
    return `${published.versionId}-${fingerprint.slice(0, 16)}`;
  };

  const makeVersion = async (published: PublishedSiteContent & { versionId: number }, folderName: string) => {
    const versionDir = path.join(pagesDir, folderName);
    if (existsSync(versionDir)) return versionDir;
    const started = performance.now();
    const unfinished = `${versionDir}.making-${process.pid}`;
    await rm(unfinished, { recursive: true, force: true });
    await renderPrerenderedPages(options.services, published.content, unfinished);
    await options.writeSitePhotoFiles?.(
      options.db,
      uploadedPhotoNames(published.content),
      path.join(unfinished, "images"),
    );
    await precompress(unfinished);
    // Another instance on the same DATA_DIR may have made it meanwhile: then its folder is the one kept.
    await rename(unfinished, versionDir).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(versionDir)) throw error;
      await rm(unfinished, { recursive: true, force: true });
    });
    options.logger.info(
      { versionId: published.versionId, ms: Math.round(performance.now() - started) },
      "made the public pages of the published site content",
    );
    return versionDir;
  };

  const dropOlderVersions = async (servedVersionId: number) => {
    const entries = await readdir(pagesDir).catch(() => []);
    for (const entry of entries) {
      if (isDroppableVersionFolder(entry, servedVersionId))
        await rm(path.join(pagesDir, entry), { recursive: true, force: true });
    }
  };

  return {
    serve: async (published) => {
      const { versionId } = published;
      if (versionId === null) return;
      const folderName = folderNameOf({ ...published, versionId });
      const versionDir = await makeVersion({ ...published, versionId }, folderName);
      const pages = loadStaticFiles(versionDir, options.styleSources);
      for (const [urlPath, file] of pages) options.files.set(urlPath, file);
      await dropOlderVersions(versionId);
    },
  };
}
