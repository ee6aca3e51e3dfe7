import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of app/, lowest first: a file may import its own layer and those below it, never one above.
 * Static content sits under everything; files directly in app/ (root.tsx, routes.ts, entry.server.tsx) on top.
 */
const LAYERS = ["content", "services", "outbox", "forms", "components", "features", "routes", ""];

/**
 * Where a file sits: its layer, and its folder (the layer, or `features/<feature>` and `features/<family>/<sub>`).
 * A file directly in features/ is where the features meet (the registries built from their manifests), not a
 * feature; a feature's manifest (feature.ts) is what it hands those registries, so it counts in their folder.
 */
function placeOf(file: string): { layer: string; folder: string; feature?: string; subfeature?: string } {
  const parts = file.split("/");
  const layer = parts.length === 1 ? "" : (parts[0] as string);
  if (layer !== "features" || parts.length === 2) return { layer, folder: layer };
  const [, feature, sub] = parts;
  const subfeature = parts.length > 3 ? sub : undefined;
  const folder = /\/feature(\.ts)?$/.test(file)
    ? "features"
    : ["features", feature, subfeature].filter(Boolean).join("/");
  return { layer, folder, feature, subfeature };
}

/** A path relative to app/ that climbs out of it: app/ imports packages, never the project's other folders. */
const leavesApp = (target: string) => target.startsWith("../");

/**
 * What breaks the layering in a map from each file of app/ to the files it imports (paths relative to app/):
 * an import that leaves app/, an import of a higher layer, a feature importing another feature or a sibling
 * subfeature, and cycles between folders.
 */
function boundaryProblems(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const folderEdges = new Map<string, Set<string>>();
  for (const [file, targets] of imports) {
    const from = placeOf(file);
    if (!LAYERS.includes(from.layer)) problems.push(`${file} is in no layer`);
    for (const target of targets) {
      if (leavesApp(target)) {
        problems.push(`${file} imports ${target}, outside app/`);
        continue;
      }
      const to = placeOf(target);
      if (LAYERS.indexOf(to.layer) > LAYERS.indexOf(from.layer)) {
        problems.push(`${file} imports ${target}, a layer above its own`);
      } else if (from.feature && to.feature && from.feature !== to.feature) {
        problems.push(`${file} imports ${target}: a feature imports another feature`);
      } else if (from.subfeature && to.subfeature && from.subfeature !== to.subfeature) {
        problems.push(`${file} imports ${target}: a subfeature imports its sibling`);
      }
      if (from.folder !== to.folder)
        folderEdges.set(from.folder, (folderEdges.get(from.folder) ?? new Set()).add(to.folder));
    }
  }
  return [...problems, ...folderCycles(folderEdges).map((cycle) => `folders import each other: ${cycle.join(" -> ")}`)];
}

/** Each cycle in the folder graph once, as the path from its first folder back to it. */
function folderCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const visit = (folder: string, trail: string[]) => {
    const start = trail.indexOf(folder);
    if (start >= 0) {
      const cycle = trail.slice(start);
      const key = [...cycle].sort().join(" ");
      if (!cycles.has(key)) cycles.set(key, [...cycle, folder]);
      return;
    }
    for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
  };
  for (const folder of edges.keys()) visit(folder, []);
  return [...cycles.values()];
}

const appDir = import.meta.dirname;

/**
 * Every module of app/ with what it imports besides packages (a bare name or a node: builtin), read from its
 * import statements: a module of app/, or a path out of it. Tests are left out: a test wires real pieces
 * together as the server does (a backup job with the outbox's text sender).
 */
function importsOfTree(): Map<string, string[]> {
  const files = readdirSync(appDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
  );
  return new Map(
    files.map((file) => {
      const source = readFileSync(path.join(appDir, file), "utf8");
      const targets = [...source.matchAll(/(?:from|import)\s*\(?\s*"([^"?]+)[^"]*"/g)].flatMap(([, specifier = ""]) => {
        if (specifier.startsWith("~/")) return [specifier.slice(2)];
        if (specifier.startsWith(".")) {
          return [
            path
              .relative(appDir, path.resolve(appDir, path.dirname(file), specifier))
              .split(path.sep)
              .join("/"),
          ];
        }
        // package.json's own imports (#tests/...) are the project's files, outside app/.
        if (specifier.startsWith("#")) return [`../${specifier}`];
        return [];
      });
      return [file.split(path.sep).join("/"), targets];
    }),
  );
}

describe("layer boundaries", () => {
  it("reports a feature importing another feature", () => {
    const imports = new Map([["features/inbox/list.ts", ["features/careers/definition"]]]);
    expect(boundaryProblems(imports)).toEqual([
      "features/inbox/list.ts imports features/careers/definition: a feature imports another feature",
    ]);
  });

  it("reports a subfeature importing its sibling, and lets it import its family's shared files", () => {
    const imports = new Map([
      ["features/scheduling/job-request/schema.ts", ["features/scheduling/calendar-fields"]],
      ["features/scheduling/estimate-request/schema.ts", ["features/scheduling/job-request/schema"]],
    ]);
    expect(boundaryProblems(imports)).toEqual([
      "features/scheduling/estimate-request/schema.ts imports features/scheduling/job-request/schema: a subfeature imports its sibling",
    ]);
  });

  it("reports an import of a higher layer", () => {
    const imports = new Map([
      ["outbox/worker.server.ts", ["forms/definition"]],
      ["forms/definition.ts", ["outbox/submission-store.server"]],
    ]);
    expect(boundaryProblems(imports)).toContain(
      "outbox/worker.server.ts imports forms/definition, a layer above its own",
    );
  });

  it("reports an import that leaves app/ for another folder of the project", () => {
    const imports = new Map([["services/work-pool.server.ts", ["../server/work-worker", "services/config.server"]]]);
    expect(boundaryProblems(imports)).toEqual([
      "services/work-pool.server.ts imports ../server/work-worker, outside app/",
    ]);
  });

  it("reports folders that import each other, even where each import keeps to its layer", () => {
    const imports = new Map([
      ["features/inbox/list.ts", ["features/inbox/parts/row"]],
      ["features/inbox/parts/row.ts", ["features/inbox/parts/cell"]],
      ["features/inbox/parts/cell.ts", ["features/inbox/list"]],
    ]);
    expect(boundaryProblems(imports)).toEqual([
      "folders import each other: features/inbox -> features/inbox/parts -> features/inbox",
    ]);
  });

  it("lets a registry collect the manifest of a feature that reads the registry, and catches a feature importing its manifest", () => {
    const imports = new Map([
      ["features/submission-types.server.ts", ["features/inbox/feature", "features/careers/feature"]],
      ["features/careers/feature.ts", ["features/careers/definition"]],
      ["features/inbox/load-inbox.server.ts", ["features/submission-types.server"]],
    ]);
    expect(boundaryProblems(imports)).toEqual([]);
    imports.set("features/careers/definition.ts", ["features/careers/feature"]);
    expect(boundaryProblems(imports)).toEqual(["folders import each other: features -> features/careers -> features"]);
  });

  it("finds nothing in the app's own tree", () => {
    expect(boundaryProblems(importsOfTree())).toEqual([]);
  });
});
