import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

export function readBuildInfo() {
  try {
    return JSON.parse(readFileSync(path.join(projectRoot, "build/build-info.json"), "utf8"));
  } catch {
    return undefined;
  }
}
