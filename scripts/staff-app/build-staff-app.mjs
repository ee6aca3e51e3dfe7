// Makes the staff area an installable app (decision 0904), into the client build under /admin/: the icons from
// the company mark, the web app manifest, and the service worker with the list of the build's files it keeps.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import sharp from "sharp";
import { getManifest, injectManifest } from "workbox-build";

const THEME_COLOUR = "#166534";
const MARK_COLOUR = "#15803d";

/** A module of the app, such as the company's identity, bundled on the fly so the build reads the same values. */
async function importTypeScript(file) {
  const { outputFiles } = await build({ entryPoints: [file], bundle: true, write: false, format: "esm" });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}

export async function buildStaffApp(projectRoot) {
  const clientDir = path.join(projectRoot, "build/client");
  const adminDir = path.join(clientDir, "admin");
  mkdirSync(path.join(adminDir, "icons"), { recursive: true });

  const mark = readFileSync(path.join(projectRoot, "public/favicon.svg"));
  const icon = (size) => sharp(mark, { density: (72 * size) / 32 }).resize(size, size);
  await icon(192).png().toFile(path.join(adminDir, "icons/staff-192.png"));
  await icon(512).png().toFile(path.join(adminDir, "icons/staff-512.png"));
  // Maskable: the mark inside the middle 80 % safe zone, on its own colour to the edges.
  await sharp({ create: { width: 512, height: 512, channels: 4, background: MARK_COLOUR } })
    .composite([{ input: await icon(360).png().toBuffer(), gravity: "centre" }])
    .png()
    .toFile(path.join(adminDir, "icons/staff-maskable-512.png"));

  const { company } = await importTypeScript(path.join(projectRoot, "app/content/company.ts"));
  const manifest = {
    name: `${company.name} Staff`,
    short_name: `${company.shortName} Staff`,
    id: "/admin/quick-links",
    start_url: "/admin/quick-links",
    scope: "/admin/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: THEME_COLOUR,
    icons: [
      { src: "/admin/icons/staff-192.png", sizes: "192x192", type: "image/png" },
      { src: "/admin/icons/staff-512.png", sizes: "512x512", type: "image/png" },
      { src: "/admin/icons/staff-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  writeFileSync(path.join(adminDir, "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`);

  const bundled = path.join(projectRoot, "build/staff-service-worker.js");
  const globPatterns = ["assets/**/*.{js,css,woff2}"];
  // The build's version is what it keeps: a build with other files gets a worker of its own.
  const { manifestEntries } = await getManifest({ globDirectory: clientDir, globPatterns });
  const version = createHash("sha256").update(JSON.stringify(manifestEntries)).digest("hex").slice(0, 16);
  await build({
    entryPoints: [path.join(projectRoot, "scripts/staff-app/service-worker.mjs")],
    outfile: bundled,
    bundle: true,
    format: "iife",
    minify: true,
    target: "es2022",
    define: { "process.env.NODE_ENV": '"production"', STAFF_APP_VERSION: JSON.stringify(version) },
    logLevel: "warning",
  });
  const { count, size, warnings } = await injectManifest({
    swSrc: bundled,
    swDest: path.join(adminDir, "service-worker.js"),
    globDirectory: clientDir,
    globPatterns,
    // From the site's root: the worker lives under /admin/, the build's files do not.
    modifyURLPrefix: { "": "/" },
  });
  for (const warning of warnings) console.warn(`build: service worker: ${warning}`);
  console.log(`build: the staff service worker keeps ${count} files (${Math.round(size / 1024)} KiB)`);
}
