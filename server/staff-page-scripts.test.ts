import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";

// The staff pages' script, read from the build (`npm run build` first): what each page loads is the route
// manifest's entry and the modules of its routes, which React Router writes into the page as modulepreloads.

const clientDir = path.join(projectRoot, "build/client");
const assetsDir = path.join(clientDir, "assets");

type ManifestModule = { module: string; imports?: string[] };
type RouteManifest = { entry: ManifestModule; routes: Record<string, ManifestModule> };

function routeManifest(): RouteManifest {
  const file = readdirSync(assetsDir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("no route manifest in build/client/assets: run npm run build");
  const source = readFileSync(path.join(assetsDir, file), "utf8");
  return JSON.parse(source.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as RouteManifest;
}

/** Every script file a page of the staff layout loads, by the route id of its screen. */
function staffPageScripts(manifest: RouteManifest, routeId: string): Array<{ file: string; code: string }> {
  const modules = [manifest.entry, ...["root", "routes/admin/staff-layout", routeId].map((id) => manifest.routes[id])];
  const files = new Set(modules.flatMap((route) => (route ? [route.module, ...(route.imports ?? [])] : [])));
  return [...files].map((file) => ({ file, code: readFileSync(path.join(clientDir, file), "utf8") }));
}

const prerenderedHtml = (page: string) => readFileSync(path.join(clientDir, page, "index.html"), "utf8");

/** A stretch of the text without quotes or backslashes, which a bundle keeps as is inside a string literal. */
function unescapedStretchOf(text: string): string {
  const stretch = /[^"'`\\\n]{80}/.exec(text)?.[0];
  if (!stretch) throw new Error("no stretch of 80 characters without quotes");
  return stretch;
}

describe("the staff pages' JavaScript", () => {
  const manifest = routeManifest();

  it("leaves out the inlined stylesheets and the marketing pages' script, which only the server writes", () => {
    const rootChunk = readFileSync(path.join(clientDir, manifest.routes.root?.module ?? ""), "utf8");
    const siteStylesheet = /<style[^>]*>([\s\S]*?)<\/style>/.exec(prerenderedHtml("/apply"))?.[1] ?? "";
    const publicStylesheet = /<style[^>]*>([\s\S]*?)<\/style>/.exec(prerenderedHtml("/"))?.[1] ?? "";
    const publicScript = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(prerenderedHtml("/"))?.[1] ?? "";
    for (const inlined of [siteStylesheet, publicStylesheet, publicScript]) {
      expect(inlined.length).toBeGreaterThan(1000);
      expect(rootChunk).not.toContain(unescapedStretchOf(inlined));
    }
  });

  it.each(["routes/admin/quick-links", "routes/admin/inbox"])("%s, which has no form to check, loads no zod", (id) => {
    const scripts = staffPageScripts(manifest, id);
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.filter(({ code }) => code.includes("$ZodType")).map(({ file }) => file)).toEqual([]);
  });

  // On a phone each file is a round trip before the page runs; Rollup's own split gave a form page 40 of them.
  it.each([
    "routes/admin/quick-links",
    "routes/admin/team-communication",
    "routes/admin/estimate-request",
    "routes/admin/job-request",
    "routes/admin/estimate-checklist",
    "routes/admin/peer-review",
    "routes/admin/inbox",
  ])("%s loads its script in at most ten files", (id) => {
    expect(staffPageScripts(manifest, id).length).toBeLessThanOrEqual(10);
  });

  // The fields' length caps are read from the schemas' definitions; zod's JSON Schema writer (7 KB gzip) did it.
  it.each(["routes/admin/peer-review", "routes/admin/estimate-request", "routes/admin/team-communication"])(
    "%s leaves out zod's JSON Schema writer",
    (id) => {
      const scripts = staffPageScripts(manifest, id);
      expect(scripts.filter(({ code }) => code.includes("json-schema.org")).map(({ file }) => file)).toEqual([]);
    },
  );

  it("is measured the way that finds zod: a tool's form loads it", () => {
    const scripts = staffPageScripts(manifest, "routes/admin/job-request");
    expect(scripts.some(({ code }) => code.includes("$ZodType"))).toBe(true);
  });
});
