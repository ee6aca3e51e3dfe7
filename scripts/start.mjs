// `npm start`: builds when the build is missing or older than the sources (or was made for another SITE_URL),
// then runs the server. Without DATABASE_URL the server starts its own PostgreSQL under DATA_DIR.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot, readBuildInfo, sourceFingerprint } from "./build-info.mjs";

const envFile = path.join(projectRoot, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);

const info = readBuildInfo();
const siteUrl = process.env.SITE_URL || "http://localhost:3000";
const reason = !info
  ? "no build yet"
  : info.sources !== sourceFingerprint()
    ? "sources changed since the last build"
    : info.siteUrl !== siteUrl
      ? `SITE_URL changed to ${siteUrl}`
      : undefined;
if (reason) {
  console.log(`start: building (${reason})`);
  execFileSync(process.execPath, [path.join(projectRoot, "scripts/build.mjs")], { stdio: "inherit", env: process.env });
}
await import(pathToFileURL(path.join(projectRoot, "build/server-entry/index.js")).href);
