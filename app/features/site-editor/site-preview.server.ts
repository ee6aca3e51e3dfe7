import { type AppLoadContext, data } from "react-router";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { loadSiteDraft, loadSiteVersion } from "~/services/site-content/site-content-store.server";
import { PREVIEW_PAGES } from "./site-sections";

/** Every inline or linked script of a page: the preview shows the page as served, without running it. */
const SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script>/gi;

/**
 * A public page's HTML for the editor's frame: its uploaded photos read from the editor's own route (their files
 * are written out only when a version naming them is published), and its scripts left out, since the frame runs
 * none (the staff page's script policy would refuse them). Everything else is the page as visitors get it.
 */
export function previewHtml(html: string): string {
  return html.replace(SCRIPTS, "").replace(/\/images\/(site-[0-9a-f]{12}-)/g, "/admin/site/photos/$1");
}

/**
 * The preview: a public page exactly as it would be served with the draft (or an earlier version, to look at it
 * before publishing it again), at a phone's width or the full width.
 */
export async function loadSitePreview(request: Request, context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  const query = new URL(request.url).searchParams;
  const page = PREVIEW_PAGES.find((candidate) => candidate.path === (query.get("page") ?? "/"));
  if (!page) throw data({ message: "There is no such page to preview." }, { status: 404 });
  const versionText = query.get("version");
  const versionId = versionText && /^\d{1,15}$/.test(versionText) ? Number(versionText) : null;
  const content =
    versionId === null ? (await loadSiteDraft(context.db)).content : await loadSiteVersion(context.db, versionId);
  if (!content) throw data({ message: "There is no such version." }, { status: 404 });
  const rendered = await context.renderSitePage(page.path, content);
  return {
    page,
    versionId,
    phoneWidth: query.get("width") !== "full",
    html: previewHtml(await rendered.text()),
  };
}
