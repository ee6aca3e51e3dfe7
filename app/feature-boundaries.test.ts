import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Capabilities every feature builds on, as it builds on app/components, app/server and app/forms. */
const SHARED_FEATURES = new Set(["deliveries"]);

const featuresDir = path.join(import.meta.dirname, "features");
const features = readdirSync(featuresDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());

/** The feature a module specifier reaches into, from a file in `directory`; undefined for anything else. */
function featureImported(specifier: string, directory: string): string | undefined {
  const aliased = /^~\/features\/([^/]+)/.exec(specifier)?.[1];
  if (aliased) return aliased;
  if (!specifier.startsWith(".")) return undefined;
  const relative = path.relative(featuresDir, path.resolve(directory, specifier));
  return relative.startsWith("..") ? undefined : relative.split(path.sep)[0];
}

describe("feature boundaries", () => {
  it.each(features.map((entry) => entry.name))("%s imports shared code only, never another feature", (feature) => {
    const files = readdirSync(path.join(featuresDir, feature), { recursive: true, encoding: "utf8" }).filter((file) =>
      /\.(ts|tsx)$/.test(file),
    );
    const crossings: string[] = [];
    for (const file of files) {
      const filePath = path.join(featuresDir, feature, file);
      const source = readFileSync(filePath, "utf8");
      for (const [, specifier = ""] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const target = featureImported(specifier, path.dirname(filePath));
        if (target && target !== feature && !SHARED_FEATURES.has(target)) crossings.push(`${file} -> ${specifier}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
