import { execFileSync, spawn } from "node:child_process";
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

const BUILD_SCRIPT = path.join(projectRoot, "scripts/build.mjs");

/** Why the build must run (no build, sources changed since it, made for another SITE_URL), or undefined. */
function rebuildReason() {
  writeFeatureIndexes(projectRoot);
  const info = readBuildInfo();
  const siteUrl = buildSiteUrl();
  if (!info) return "no build yet";
  if (info.sources !== sourceFingerprint()) return "sources changed since the last build";
  if (info.siteUrl !== siteUrl) return `SITE_URL changed to ${siteUrl}`;
  return undefined;
}

/**
 * Runs scripts/build.mjs when there is no build, the sources changed since it, or it was made for another
 * SITE_URL (the prerendered pages carry it). `label` prefixes the line that says why.
 */
export function buildIfNeeded(label) {
  const reason = rebuildReason();
  if (!reason) return;
  console.log(`${label}: building (${reason})`);
  execFileSync(process.execPath, [BUILD_SCRIPT], { stdio: "inherit", env: process.env });
}

/**
 * `node args...` with this process's output, and its exit code once it ends. In a process group of its own, so
 * that stopping it stops what it started too (the build runs Vite in a process of its own).
 */
function spawnNode(args) {
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: "inherit", env: process.env, detached: true });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  return { exited, stop };
}

/**
 * buildIfNeeded for `npm start`: the first start also makes the embedded PostgreSQL's cluster and migrates it
 * (server/prepare-database-cli.ts) while the app builds, rather than after, on the server's start.
 */
async function buildBesideDatabase(label) {
  const reason = rebuildReason();
  if (!reason) return;
  console.log(`${label}: building (${reason})`);
  const steps = [
    spawnNode([BUILD_SCRIPT]),
    spawnNode(["--import", "tsx", path.join(projectRoot, "server/prepare-database-cli.ts")]),
  ];
  // Told to stop while it builds (Ctrl-C, or SIGTERM, which npm passes on), it ends both and all they started.
  const stop = () => {
    for (const step of steps) step.stop();
    process.exit(1);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const [built] = await Promise.all(steps.map((step) => step.exited));
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (built !== 0) {
    console.error(`${label}: the build failed (above); nothing was started`);
    process.exit(1);
  }
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
  if (build) await buildBesideDatabase(label);
  await import(pathToFileURL(path.join(projectRoot, "build/server-entry", `${entryName}.js`)).href);
}
