import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeFeatureIndexes } from "./feature-index.mjs";

export const projectRoot = fileURLToPath(new URL("..", import.meta.url));

const SOURCES = [
  "app",
  "server",
  "public",
  "assets",
  "drizzle",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
];

/** A hash over the paths, sizes and modification times of everything the build reads. */
export function sourceFingerprint() {
  const hash = createHash("sha256");
  const visit = (relative) => {
    const absolute = path.join(projectRoot, relative);
    let stat;
    try {
      stat = statSync(absolute);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (relative === "public/images") return;
      for (const name of readdirSync(absolute).sort()) visit(path.join(relative, name));
      return;
    }
    hash.update(`${relative}:${stat.size}:${stat.mtimeMs}\n`);
  };
  for (const source of SOURCES) visit(source);
  return hash.digest("hex");
}

/** The SITE_URL the prerendered pages are built with: without one, this machine on PORT (localSiteUrl's rule). */
export function buildSiteUrl() {
  return process.env.SITE_URL || `http://localhost:${Number(process.env.PORT) || 3000}`;
}

function readBuildInfo() {
  try {
    return JSON.parse(readFileSync(path.join(projectRoot, "build/build-info.json"), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Runs scripts/build.mjs when there is no build, the sources changed since it, or it was made for another
 * SITE_URL (the prerendered pages carry it). `label` prefixes the line that says why.
 */
export function buildIfNeeded(label) {
  writeFeatureIndexes(projectRoot);
  const info = readBuildInfo();
  const siteUrl = buildSiteUrl();
  const reason = !info
    ? "no build yet"
    : info.sources !== sourceFingerprint()
      ? "sources changed since the last build"
      : info.siteUrl !== siteUrl
        ? `SITE_URL changed to ${siteUrl}`
        : undefined;
  if (!reason) return;
  console.log(`${label}: building (${reason})`);
  execFileSync(process.execPath, [path.join(projectRoot, "scripts/build.mjs")], { stdio: "inherit", env: process.env });
}

/**
 * Reads .env (when present), fills in `defaults` for variables still unset or empty, builds if needed (unless
 * `build` is false), then runs one of the bundled entries in build/server-entry.
 */
export async function runBuiltEntry(label, entryName, defaults = {}, { build = true } = {}) {
  const envFile = path.join(projectRoot, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  for (const [name, value] of Object.entries(defaults)) {
    if (!process.env[name]) process.env[name] = value;
  }
  if (build) buildIfNeeded(label);
  await import(pathToFileURL(path.join(projectRoot, "build/server-entry", `${entryName}.js`)).href);
}
