// Lighthouse for the bench. It is installed into scripts/bench-lighthouse on the bench's first use, not with the
// project: with its dependencies (Sentry, OpenTelemetry, puppeteer-core) it is 168 packages and 195 MB, 44% of
// the files `npm install` would otherwise unpack, and only the bench runs it (decision 0910).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const TOOL_DIR = path.join(import.meta.dirname, "bench-lighthouse");
const INSTALLED = path.join(TOOL_DIR, "node_modules/lighthouse");

/** The part of Lighthouse's result (its `Result`, the LHR) that the bench reads. */
export type LighthouseAudit = {
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
  details?: {
    type: string;
    items: Array<{ node?: { type?: string; snippet?: string } | string; href?: unknown; text?: unknown }>;
  };
};
export type LighthouseReport = {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string }> } | undefined>;
  audits: Record<string, LighthouseAudit | undefined>;
};
export type LighthouseFlags = {
  port: number;
  output: "json";
  logLevel: "error";
  onlyCategories: string[];
  extraHeaders?: Record<string, string>;
};
type Lighthouse = (url: string, flags: LighthouseFlags) => Promise<{ lhr: LighthouseReport } | undefined>;

const versionIn = (packageJson: string): string | undefined => {
  try {
    return JSON.parse(readFileSync(packageJson, "utf8")).version;
  } catch {
    return undefined;
  }
};

let loading: Promise<Lighthouse> | undefined;

/** Lighthouse's default export, installed first (once, with the versions in the folder's lockfile) when missing. */
export function loadLighthouse(): Promise<Lighthouse> {
  loading ??= (async () => {
    const locked = JSON.parse(readFileSync(path.join(TOOL_DIR, "package-lock.json"), "utf8")).packages[
      "node_modules/lighthouse"
    ].version;
    if (versionIn(path.join(INSTALLED, "package.json")) !== locked) {
      console.log(`bench: installing Lighthouse ${locked} into ${path.relative(process.cwd(), TOOL_DIR)} (once)`);
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: TOOL_DIR,
        stdio: "inherit",
      });
    }
    // The package has its own types, which the project does not install; the bench relies on the fields above.
    const module = (await import(pathToFileURL(path.join(INSTALLED, "core/index.js")).href)) as { default: Lighthouse };
    return module.default;
  })();
  return loading;
}
