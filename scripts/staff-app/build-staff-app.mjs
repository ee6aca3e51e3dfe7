// Makes the staff area an installable app (decision 0904), into the client build under /admin/: the icons from
// the company mark, the web app manifest, and the service worker with the list of the build's files it keeps.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import sharp from "sharp";

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

  // The build's scripts, stylesheets and fonts, each with a revision of its content, as Workbox's precaching
  // takes them. Listed here rather than by workbox-build, which would add some 240 packages to every install.
  const kept = readdirSync(path.join(clientDir, "assets"), { recursive: true })
    .map((file) => String(file))
    .filter((file) => /\.(js|css|woff2)$/.test(file))
    .sort()
    .map((file) => {
      const content = readFileSync(path.join(clientDir, "assets", file));
      return { url: `/assets/${file.split(path.sep).join("/")}`, revision: hash(content), size: content.length };
    });
  const precacheEntries = kept.map(({ url, revision }) => ({ url, revision }));
  // The build's version is what it keeps: a build with other files gets a worker of its own.
  const version = hash(JSON.stringify(precacheEntries));
  await build({
    entryPoints: [path.join(projectRoot, "scripts/staff-app/service-worker.mjs")],
    outfile: path.join(adminDir, "service-worker.js"),
    bundle: true,
    format: "iife",
    minify: true,
    target: "es2022",
    define: {
      "process.env.NODE_ENV": '"production"',
      STAFF_APP_VERSION: JSON.stringify(version),
      "self.__WB_MANIFEST": JSON.stringify(precacheEntries),
    },
    logLevel: "warning",
  });
  const size = kept.reduce((total, file) => total + file.size, 0);
  console.log(`build: the staff service worker keeps ${kept.length} files (${Math.round(size / 1024)} KiB)`);
}

const hash = (content) => createHash("sha256").update(content).digest("hex").slice(0, 16);
