// The public pages before and after an edit published as the owner publishes one (issue 49): a new testimonial,
// office phone and a service page photo from a twelve-megapixel JPEG, through the site editor's own store and
// photo functions against the bench app's database. `npm run bench -- public-pages --after-edit` measures the
// public pages (weight, Lighthouse beside nginx) and the static files against nginx, publishes the edit, and
// measures the same again, in one run; the goal is that nothing changes.
import { withAppDatabase } from "#tests/app-database";
import { TEST_SESSION_SECRET } from "#tests/test-session-secret";
import { createStaffUser } from "../app/services/auth/staff-users.server";
import { loadConfig } from "../app/services/config.server";
import {
  publishedSiteContent,
  publishSiteDraft,
  saveSiteDraft,
} from "../app/services/site-content/site-content-store.server";
import { storeSitePhoto } from "../app/services/site-photos/site-photo-store.server";
import { workPool } from "../app/services/work-pool/work-pool.server";
import { twelveMegapixelPhoto } from "./bench-checklist";
import { NGINX_PERFORMANCE_GOAL, type PageResult } from "./bench-pages";
import type { Measured } from "./bench-static";
import { type BenchRow, perSecond, textTable } from "./bench-table";

const KB = 1024;
const EDITED_PAGE = "/lighting";
const EDIT = {
  quote: "They relit our whole campus over one summer and never missed a day.",
  phone: "(803) 555-0177",
  photoAlt: "A school hallway under new LED lights",
} as const;

/** What one side of the edit measured: the public pages beside nginx, and the static files against nginx. */
export type AroundEditSide = { publicPages: PageResult[]; staticFiles: Measured[] };
export type AroundEdit = {
  before: AroundEditSide;
  after: AroundEditSide;
  edit: { versionId: number; photoName: string; photoMegabytes: number; publishedToServedMs: number };
};

/**
 * Publishes the edit in the database of the app (started from build/ with its data in dataDir), as an admin
 * would through /admin/site, and resolves once the app serves it on / and the edited service page.
 */
export async function publishBenchEdit(app: { url: string; dataDir: string }): Promise<AroundEdit["edit"]> {
  const photo = await twelveMegapixelPhoto(0);
  // The app's photo settings, for the work pool this process makes the renditions in.
  const config = loadConfig({ NODE_ENV: "production", SESSION_SECRET: TEST_SESSION_SECRET });
  const { versionId, photoName } = await withAppDatabase(app.dataDir, async (db) => {
    const user = await createStaffUser(db, {
      username: `bench-site-owner-${Date.now()}`,
      password: "unused password of the bench's site owner",
      role: "admin",
    });
    const published = await publishedSiteContent(db);
    const content = structuredClone(published.content);
    const [oldPhoto] = content.services.lighting.images;
    const [testimonial] = content.home.testimonials;
    if (!oldPhoto || !testimonial) throw new Error("bench: the site's content has no lighting photo or testimonial");
    const slot = { width: oldPhoto.width, height: oldPhoto.height };
    const stored = await storeSitePhoto(
      db,
      config,
      { fileName: "IMG_2041.JPG", contentType: "image/jpeg", content: new Uint8Array(photo) },
      slot,
      user.id,
    );
    if (!stored.ok) throw new Error(`bench: the photo was not stored: ${stored.reason}`);
    content.services.lighting.images[0] = { name: stored.name, alt: EDIT.photoAlt, ...slot };
    content.home.testimonials[0] = { ...testimonial, quote: EDIT.quote };
    content.company.phone = EDIT.phone;
    const base = { userId: user.id, baseVersionId: published.versionId };
    const saved = await saveSiteDraft(db, { content, ...base });
    if (saved.status !== "saved") throw new Error(`bench: the draft was not saved: ${saved.status}`);
    const publish = await publishSiteDraft(db, base);
    if (publish.status !== "published") throw new Error(`bench: the draft was not published: ${publish.status}`);
    return { versionId: publish.versionId, photoName: stored.name };
  });
  await workPool(config).destroy();
  const published = Date.now();
  for (;;) {
    const [home, page] = await Promise.all(
      ["/", EDITED_PAGE].map((pagePath) => fetch(new URL(pagePath, app.url)).then((answer) => answer.text())),
    );
    if (home?.includes(EDIT.quote) && home.includes(EDIT.phone) && page?.includes(photoName)) break;
    if (Date.now() - published > 30_000) throw new Error("bench: the published edit was not served within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const publishedToServedMs = Date.now() - published;
  console.log(`bench: published version ${versionId} (photo ${photoName}); served after ${publishedToServedMs} ms`);
  return { versionId, photoName, photoMegabytes: photo.byteLength / KB / KB, publishedToServedMs };
}

const number = (value: number | null | undefined) => (value == null ? "n/a" : value.toFixed(0));
const beforeAfter = (before: string, after: string) => `${before} -> ${after}`;

/** Each public page's weight and Lighthouse medians, and the static files' rates, before and after the edit. */
export function printAroundEdit({ before, after, edit }: AroundEdit) {
  const header = ["page", "JS gzip KB", "CSS gzip KB", "image KB", "perf", "LCP ms", "TBT ms", "CLS", "nginx perf"];
  const rows = before.publicPages.map((was) => {
    const now = after.publicPages.find((result) => result.page === was.page);
    const each = (pick: (result: PageResult) => string) => beforeAfter(pick(was), now ? pick(now) : "n/a");
    return [
      was.page,
      each((result) => (result.jsGzipBytes / KB).toFixed(1)),
      each((result) => (result.cssGzipBytes / KB).toFixed(1)),
      each((result) => (result.imageBytes / KB).toFixed(1)),
      each((result) => number(result.scores.performance)),
      each((result) => number(result.lcpMs)),
      each((result) => number(result.tbtMs)),
      each((result) => result.cls?.toFixed(3) ?? "n/a"),
      each((result) => number(result.nginx?.performance)),
    ];
  });
  const staticRows = before.staticFiles.map((was) => {
    const now = after.staticFiles.find((measured) => measured.path === was.path);
    const each = (pick: (measured: Measured) => string) => beforeAfter(pick(was), now ? pick(now) : "n/a");
    return [
      was.path,
      each((measured) => perSecond(measured.ours.requestsPerSecond)),
      each((measured) => (measured.nginx ? perSecond(measured.nginx.requestsPerSecond) : "n/a")),
      each((measured) => String(measured.ours.failures)),
    ];
  });
  console.log(
    `\nPublic pages before -> after publishing an edit (testimonial, office phone, ${EDITED_PAGE}'s first photo ` +
      `from a ${edit.photoMegabytes.toFixed(1)} MB twelve-megapixel JPEG; served ${edit.publishedToServedMs} ms ` +
      `after the publish); Lighthouse mobile medians of ${before.publicPages[0]?.runs} runs, ABBA with nginx:\n` +
      `${textTable(header, rows)}\n\nStatic files against nginx, before -> after:\n` +
      textTable(["GET (compressed)", "app", "nginx gzip_static", "app failed"], staticRows),
  );
}

/**
 * The summary's rows: each page's performance median after the edit against before (within the points the app
 * may be below nginx, the run-to-run noise), with its script and stylesheets unchanged; the static files' rate
 * after against before, held to the static part's own goal against nginx.
 */
export function aroundEditRows({ before, after }: AroundEdit): BenchRow[] {
  const { pointsBelowNginx } = NGINX_PERFORMANCE_GOAL;
  const pages = before.publicPages.map((was): BenchRow => {
    const now = after.publicPages.find((result) => result.page === was.page);
    const ours = now?.scores.performance ?? null;
    const theirs = was.scores.performance;
    const sameCode = now?.jsGzipBytes === was.jsGzipBytes && now?.cssGzipBytes === was.cssGzipBytes;
    return {
      measure: `public page ${was.page} after an edit: Lighthouse performance, JS and CSS`,
      ours: `${ours ?? "n/a"}, JS ${((now?.jsGzipBytes ?? 0) / KB).toFixed(1)} KB gzip`,
      reference: `before the edit: ${theirs ?? "n/a"}, JS ${(was.jsGzipBytes / KB).toFixed(1)} KB gzip`,
      ratio: ours !== null && theirs ? ours / theirs : undefined,
      goal: `>= before's - ${pointsBelowNginx}; JS and CSS unchanged`,
      met: ours !== null && theirs !== null && ours >= theirs - pointsBelowNginx && sameCode,
    };
  });
  const files = before.staticFiles.map((was): BenchRow => {
    const now = after.staticFiles.find((measured) => measured.path === was.path);
    const nginxRatio = now?.nginx ? now.ours.requestsPerSecond / now.nginx.requestsPerSecond : undefined;
    return {
      measure: `GET ${was.path} (compressed) after an edit`,
      ours: now ? `${perSecond(now.ours.requestsPerSecond)}, ${now.ours.failures} failed` : "n/a",
      reference: `before the edit: ${perSecond(was.ours.requestsPerSecond)}`,
      ratio: now ? now.ours.requestsPerSecond / was.ours.requestsPerSecond : undefined,
      goal: ">= 0.5 of nginx after, 0 failed",
      met: nginxRatio === undefined ? undefined : nginxRatio >= 0.5 && now?.ours.failures === 0,
    };
  });
  return [...pages, ...files];
}
