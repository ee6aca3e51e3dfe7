import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./build-info.mjs";

/**
 * The README's set-up runs the site after `npm install --omit=dev` (decision 0910). Everything `npm start`, the
 * build and the README's commands for the site run, they import: the app, the server and its CLIs, the build's
 * scripts and plugins. A package they import that is only a devDependency would be missing there; CI, which
 * installs everything, would not notice.
 */
const SITE_SOURCES = ["app", "server", "vite-plugins", "scripts/staff-app"];
const SITE_FILES = [
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/build.mjs",
  "scripts/build-info.mjs",
  "scripts/build-images.mjs",
  "scripts/feature-index.mjs",
  "scripts/precompress.mjs",
  "scripts/serve.mjs",
  "scripts/start.mjs",
];
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const TEST = /\.test\.(ts|tsx)$/;

function siteFiles(): string[] {
  const inFolders = SITE_SOURCES.flatMap((folder) =>
    readdirSync(path.join(projectRoot, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => SOURCE.test(file) && !TEST.test(file) && !file.endsWith(".d.ts"))
      .map((file) => path.join(folder, file)),
  );
  return [...inFolders, ...SITE_FILES];
}

/** The packages a file imports for its running code: `import type` and type-only re-exports are left out. */
function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1] ?? "");
  return specifiers
    .filter((specifier) => !/^(\.|\/|~\/|#|node:|virtual:)/.test(specifier) && !builtinModules.includes(specifier))
    .map((specifier) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/"),
    );
}

describe("the site's packages", () => {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8"));
  const dependencies = new Set(Object.keys(manifest.dependencies));

  it("are dependencies, not devDependencies, wherever the site, its build or its commands import them", () => {
    const missing: string[] = [];
    for (const file of siteFiles()) {
      for (const name of importedPackages(readFileSync(path.join(projectRoot, file), "utf8"))) {
        if (!dependencies.has(name)) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("include tsx, on which npm start prepares the database and the CLIs run", () => {
    const scripts: Record<string, string> = manifest.scripts;
    const onTsx = Object.entries(scripts).filter(([, command]) => command.startsWith("tsx "));
    expect(onTsx.map(([name]) => name)).toEqual(expect.arrayContaining(["user", "backup", "restore"]));
    expect(dependencies.has("tsx")).toBe(true);
  });
});
