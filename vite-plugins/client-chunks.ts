import type { Plugin, Rollup } from "vite";

/** Loaded by every page that hydrates: one file instead of React's, React DOM's and React Router's own. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser)\//;
const PRELOAD_HELPER = "\0vite/preload-helper.js";
/**
 * The CommonJS wrappers' helpers, which React's modules use. In `kit` they made `framework` import `kit` by its
 * hashed name: any change to the root's modules renamed the 90 KB `framework` file, downloaded again, and moved
 * its brotli size by up to 200 bytes.
 */
const COMMONJS_HELPERS = "\0commonjsHelpers.js";
/** What only a page with a form to check needs. */
const VALIDATION = /\/node_modules\/(zod|@conform-to\/[^/]+)\//;
const STAFF_ROUTES = "/app/routes/admin/";

type ModuleGraph = Pick<Rollup.ManualChunkMeta, "getModuleInfo">;

/**
 * Groups the browser's shared modules into a few files by who loads them, instead of Rollup's one file per
 * distinct set of pages (40 files of a few hundred bytes each on a staff form page). On a phone every file is
 * a round trip before the page can run; a staff form page now loads about ten. A module that only one page
 * uses stays in that page's file, and a lazily imported one stays lazy. See docs/decisions/0907.
 *
 * - `framework`: React, React DOM and React Router;
 * - `kit`: what the root route imports, which every page loads anyway;
 * - `forms`, `staff-forms`, `site-forms`: what needs zod or Conform, so that pages without a form to check
 *   never load them;
 * - `parts`, `staff-parts`, `site-parts`: the rest, split by whether staff pages, the site's pages or both
 *   use it.
 */
export function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    config(_config, { isSsrBuild }) {
      if (isSsrBuild) return undefined;
      return { build: { rollupOptions: { output: { manualChunks: chunkOf } } } };
    },
  };
}

function chunkOf(id: string, graph: ModuleGraph): string | undefined {
  if (FRAMEWORK.test(id) || id === PRELOAD_HELPER || id === COMMONJS_HELPERS) return "framework";
  const info = graph.getModuleInfo(id);
  if (!info || info.isEntry) return undefined;
  const entries = entriesReaching(id, graph);
  if (entries.size < 2) return undefined;
  if ([...entries].some(isRootRoute)) return "kit";
  const area = areaOf(entries);
  const kind = needsValidation(id, graph) ? "forms" : "parts";
  return area ? `${area}-${kind}` : kind;
}

function isRootRoute(entry: string): boolean {
  return entry.includes("/app/root.tsx");
}

function areaOf(entries: Set<string>): "staff" | "site" | undefined {
  const staff = [...entries].filter((entry) => entry.includes(STAFF_ROUTES)).length;
  if (staff === entries.size) return "staff";
  if (staff === 0) return "site";
  return undefined;
}

/** The entries (pages and the client's entry) that load the module through static imports. */
function entriesReaching(id: string, graph: ModuleGraph): Set<string> {
  const entries = new Set<string>();
  for (const reached of walk(id, (info) => info.importers, graph)) {
    if (graph.getModuleInfo(reached)?.isEntry) entries.add(reached);
  }
  return entries;
}

/** Whether loading the module loads zod or Conform. */
function needsValidation(id: string, graph: ModuleGraph): boolean {
  return walk(id, (info) => info.importedIds, graph).some((reached) => VALIDATION.test(reached));
}

/** The module and every module reached from it through `next`, each once (import cycles end there). */
function walk(id: string, next: (info: Rollup.ModuleInfo) => readonly string[], graph: ModuleGraph): string[] {
  const seen = new Set([id]);
  const queue = [id];
  for (let index = 0; index < queue.length; index++) {
    const info = graph.getModuleInfo(queue[index] as string);
    for (const neighbour of info ? next(info) : []) {
      if (!seen.has(neighbour)) {
        seen.add(neighbour);
        queue.push(neighbour);
      }
    }
  }
  return queue;
}
