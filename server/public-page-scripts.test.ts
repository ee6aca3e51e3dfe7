import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { marketingPagePaths } from "../app/content/public-pages";

const clientDir = path.join(projectRoot, "build/client");
/** The JavaScript a public page may bring, gzip: issue 16's budget for a phone on a slow network. */
const SCRIPT_BUDGET_BYTES = 50 * 1024;

const prerenderedHtml = (page: string) => readFileSync(path.join(clientDir, page, "index.html"), "utf8");

/** Every script the page runs: its inline ones (not JSON-LD data) and the files it loads or preloads. */
function scriptsOf(html: string): Array<{ name: string; code: string }> {
  const inline = Array.from(html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g))
    .filter((match) => !(match[1] ?? "").includes("application/ld+json"))
    .map((match, index) => ({ name: `inline script ${index + 1}`, code: match[2] ?? "" }));
  const files = Array.from(
    html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g),
    (match) => match[1] ?? "",
  ).map((file) => ({ name: file, code: readFileSync(path.join(clientDir, file), "utf8") }));
  return [...inline, ...files];
}

const gzipBytes = (code: string) => gzipSync(code, { level: 9 }).length;

describe("the public pages' JavaScript", () => {
  it.each([...marketingPagePaths])("%s brings at most 50 KB gzip of it, and no React", (page) => {
    const scripts = scriptsOf(prerenderedHtml(page));
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, script) => sum + gzipBytes(script.code), 0);
    expect(total, scripts.map((script) => script.name).join(", ")).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES);
    expect(prerenderedHtml(page)).not.toContain("__reactRouterContext");
  });

  it("is measured the way that catches a React page: the careers page, which keeps React, is over the budget", () => {
    const scripts = scriptsOf(prerenderedHtml("/quiz"));
    expect(scripts.reduce((sum, script) => sum + gzipBytes(script.code), 0)).toBeGreaterThan(SCRIPT_BUDGET_BYTES);
  });
});
