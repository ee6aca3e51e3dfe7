// `npm start`: builds when the build is missing or older than the sources (or was made for another SITE_URL),
// then runs the server. Without DATABASE_URL the server starts its own PostgreSQL under DATA_DIR.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";

const envFile = path.join(projectRoot, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);

buildIfNeeded("start");
await import(pathToFileURL(path.join(projectRoot, "build/server-entry/index.js")).href);
