// Prints, one absolute path a line, the Vitest test files that use the test PostgreSQL server: those that import
// tests/support/test-database.ts or tests/support/database.global-setup.ts, directly or through any module that
// does. CI runs these again against a system PostgreSQL server (.ci/run); the other test files never touch that
// server, so running them twice proves nothing.
//
// Nothing is listed by hand, so the list cannot drift: the test files are the ones Vitest itself finds with
// vitest.config.ts, and each import is resolved by that config's own resolver (its aliases, package.json's
// "imports", the extensions), then followed through every file of this project, test helpers and app code alike.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { createVitest } from "vitest/node";

const projectRoot = path.resolve(import.meta.dirname, "..");
/** The modules through which a test reaches the server that DATABASE_URL names (or the embedded one). */
const databaseModules = new Set(
  ["tests/support/test-database.ts", "tests/support/database.global-setup.ts"].map((file) =>
    path.join(projectRoot, file),
  ),
);

const vitest = await createVitest("test", { root: projectRoot, watch: false, run: true, reporters: [] });
try {
  const specifications = await vitest.globTestSpecifications();
  const resolver = vitest.getRootProject().vite.pluginContainer;

  /** The project's own files (not packages) that a file imports, statically or with import(). */
  const importsOf = async (file) => {
    // preProcessFile reads the import and export declarations, `import type` included, and import() calls.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const resolved = await Promise.all(
      importedFiles.map(({ fileName }) => resolver.resolveId(fileName, file, { ssr: true })),
    );
    return resolved
      .map((result) => result?.id.split("?")[0])
      .filter((id) => id?.startsWith(`${projectRoot}/`) && !id.includes("/node_modules/"));
  };

  // Every project file the tests import, however deep, with who imports it.
  const testFiles = [...new Set(specifications.map((specification) => specification.moduleId))].sort();
  const importers = new Map();
  const seen = new Set(testFiles);
  for (let queue = [...testFiles]; queue.length > 0; ) {
    const file = queue.pop();
    for (const imported of await importsOf(file)) {
      importers.set(imported, [...(importers.get(imported) ?? []), file]);
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  // Then back from the database modules to everything that imports them, directly or not.
  const reachesDatabase = new Set(databaseModules);
  for (let queue = [...databaseModules]; queue.length > 0; ) {
    for (const importer of importers.get(queue.pop()) ?? []) {
      if (!reachesDatabase.has(importer)) {
        reachesDatabase.add(importer);
        queue.push(importer);
      }
    }
  }
  const selected = testFiles.filter((file) => reachesDatabase.has(file));
  if (selected.length === 0) throw new Error("no test file uses the test database: has its helper moved?");
  process.stdout.write(selected.map((file) => `${file}\n`).join(""));
} finally {
  await vitest.close();
}
