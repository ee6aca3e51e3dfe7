// Builds everything `npm run serve` needs: image renditions, the React Router app (with the public pages
// prerendered) with brotli and gzip copies of its text files, and the bundled Express entry. Writes build/build-info.json, which scripts/start.mjs reads to
// decide whether a rebuild is needed.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { buildSiteUrl, projectRoot, sourceFingerprint } from "./build-info.mjs";
import { precompress } from "./precompress.mjs";
import { buildStaffApp } from "./staff-app/build-staff-app.mjs";

const run = (command, args) => execFileSync(command, args, { cwd: projectRoot, stdio: "inherit" });

const started = Date.now();
run(process.execPath, [path.join(projectRoot, "scripts/build-images.mjs")]);
run(process.execPath, [path.join(projectRoot, "node_modules/@react-router/dev/bin.js"), "build"]);
await buildStaffApp(projectRoot);
console.log(
  `build: precompressed ${await precompress(path.join(projectRoot, "build/client"))} files (brotli and gzip)`,
);
await build({
  // The work pool's threads (app/services/work-pool/work-pool.server.ts) load work-worker.js from beside index.js.
  entryPoints: {
    index: path.join(projectRoot, "server/index.ts"),
    "work-worker": path.join(projectRoot, "server/work-worker.ts"),
  },
  outdir: path.join(projectRoot, "build/server-entry"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
writeFileSync(
  path.join(projectRoot, "build/build-info.json"),
  `${JSON.stringify({ siteUrl: buildSiteUrl(), sources: sourceFingerprint() }, null, 2)}\n`,
);
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
