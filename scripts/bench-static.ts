// Static pages and assets (issue 16 goal 2): the built app against nginx from Debian's package serving the same
// build/client with gzip_static, in one run, as a browser asks (Accept-Encoding: gzip, deflate, br).
// nginx answers with the .gz copies (Debian's nginx has no brotli module); the app with the .br ones.
// Run alone: npx tsx scripts/bench-static.ts (after npm run build).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { startAppServer } from "#tests/app-server";
import { findFreePort } from "../app/services/free-port.server";
import { inlineStyleSourcesOf } from "../server/content-security-policy";
import { type Header, securityHeaderSets } from "../server/security-headers";
import { loadStaticFiles } from "../server/static-files";
import { type BenchRow, ms, perSecond, printBenchTable } from "./bench-table";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";
import { appProfiling } from "./cpu-profile";
import { type LoadResult, runLoad } from "./load";
import { nginxRunConfig } from "./nginx-config";

const REQUESTS = 5_000;
const CONCURRENCY = 16;
const NGINX = "/usr/sbin/nginx";
const CLIENT_DIR = path.join(projectRoot, "build/client");

export type Measured = { path: string; ours: LoadResult; nginx?: LoadResult };

const FILES_AS_THEY_ARE = "        location / { try_files $uri $uri/index.html =404; }\n";

/**
 * nginx as a static file server of the same build: precompressed .gz copies (gzip_static), an access log, and
 * `locations` (by default every file as it is, without headers of ours).
 */
function staticNginxConfig(port: number, runDir: string, locations = FILES_AS_THEY_ARE): string {
  return nginxRunConfig(
    runDir,
    `    include /etc/nginx/mime.types;
    types { text/x-script data; }
    access_log ${path.join(runDir, "access.log")};
    sendfile on;
    gzip_static on;
    gzip_vary on;
    server {
        listen 127.0.0.1:${port};
        root ${CLIENT_DIR};
${locations}    }`,
  );
}

/** The header names BENCH_NGINX_HEADERS lists (lower case), or undefined for all of them. */
function headerNamesAsked(): Set<string> | undefined {
  const asked = process.env.BENCH_NGINX_HEADERS?.trim();
  return asked ? new Set(asked.split(",").map((name) => name.trim().toLowerCase())) : undefined;
}

function addHeader([name, value]: Header): string {
  // An nginx string interpolates $variables, and there is no escaping a $: no header of ours has one.
  if (value.includes("$")) throw new Error(`bench: the ${name} header's value holds a $, which nginx would read`);
  return `add_header ${name} "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}" always;`;
}

/**
 * The app's own security headers, as nginx locations: every page and SVG of the build with the headers of a page
 * that holds something (the document set, COOP included) and its Content-Security-Policy, every other file with a
 * file's, worked out by the app's code (securityHeaderSets, loadStaticFiles) with the build's inline stylesheets.
 * BENCH_NGINX_HEADERS (a comma-separated list of names) keeps only those, to measure one header at a time.
 */
async function appHeaderLocations(): Promise<string> {
  const build: ServerBuild = await import(pathToFileURL(path.join(projectRoot, "build/server/index.js")).href);
  const files = loadStaticFiles(CLIENT_DIR, inlineStyleSourcesOf(build));
  const sets = securityHeaderSets({ NODE_ENV: "production" });
  const asked = headerNamesAsked();
  const location = (match: string, headers: readonly Header[]) => {
    const lines = headers.filter(([name]) => !asked || asked.has(name.toLowerCase())).map(addHeader);
    return `        location ${match} {\n${lines.map((line) => `            ${line}\n`).join("")}            try_files $uri $uri/index.html =404;\n        }\n`;
  };
  const documents = [...files].filter(([, file]) => file.securityHeaders !== "subresource");
  return [
    location("/", sets.subresource),
    ...documents.map(([urlPath, file]) => {
      const policy = file.headers["Content-Security-Policy"];
      return location(`= ${urlPath}`, [
        ...sets.document,
        ...(policy ? [["Content-Security-Policy", policy] as const] : []),
      ]);
    }),
  ].join("");
}

/**
 * Debian's nginx serving build/client as a static file server (`gzip_static`), on a free port of 127.0.0.1,
 * `withAppHeaders`: with the app's security headers (appHeaderLocations); undefined when nginx is not installed
 * (the references that need it are then left out).
 */
export async function startStaticNginx(options: { withAppHeaders?: boolean } = {}) {
  if (!existsSync(NGINX)) return undefined;
  const runDir = await mkdtemp(path.join(tmpdir(), "tce-bench-nginx-"));
  await mkdir(runDir, { recursive: true });
  const port = await findFreePort();
  const configFile = path.join(runDir, "nginx.conf");
  const locations = options.withAppHeaders ? await appHeaderLocations() : undefined;
  await writeFile(configFile, staticNginxConfig(port, runDir, locations));
  execFileSync(NGINX, ["-t", "-q", "-c", configFile, "-e", path.join(runDir, "error.log")]);
  const child: ChildProcess = spawn(NGINX, ["-c", configFile, "-e", path.join(runDir, "error.log")], {
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 100) throw new Error("nginx did not start");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGQUIT");
      await exited;
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/** The home page and the largest script of the build: a prerendered page and a hashed asset. */
function measuredPaths(): string[] {
  const assetsDir = path.join(CLIENT_DIR, "assets");
  const [largest] = readdirSync(assetsDir)
    .filter((name) => name.endsWith(".js"))
    .map((name) => ({ name, size: statSync(path.join(assetsDir, name)).size }))
    .sort((a, b) => b.size - a.size);
  return ["/", ...(largest ? [`/assets/${largest.name}`] : [])];
}

function load(url: string, requestPath: string) {
  const request = () => ({
    method: "GET",
    path: requestPath,
    headers: { "accept-encoding": "gzip, deflate, br" },
  });
  return runLoad({ url, total: REQUESTS, concurrency: CONCURRENCY, expectStatus: 200, request });
}

/** The static files from `running` (an app the caller started and stops), or from an app of its own. */
export async function benchStatic(running?: { url: string }): Promise<Measured[]> {
  const nginx = await startStaticNginx();
  const own = running ? undefined : await startAppServer({ env: appProfiling() });
  const app = running ?? own;
  if (!app) throw new Error("bench: no app to measure");
  try {
    const results: Measured[] = [];
    for (const requestPath of measuredPaths()) {
      await load(app.url, requestPath);
      const ours = await load(app.url, requestPath);
      if (nginx) await load(nginx.url, requestPath);
      results.push({ path: requestPath, ours, nginx: nginx ? await load(nginx.url, requestPath) : undefined });
    }
    return results;
  } finally {
    if (own) {
      await own.stop();
      await rm(own.dataDir, { recursive: true, force: true });
    }
    await nginx?.stop();
  }
}

export function staticBenchRows(results: Measured[]): BenchRow[] {
  return results.map(({ path: requestPath, ours, nginx }) => ({
    measure: `GET ${requestPath} (compressed), concurrency ${CONCURRENCY}`,
    ours: `${perSecond(ours.requestsPerSecond)}, p99 ${ms(ours.latencyMs.p99)}, ${ours.failures} failed`,
    reference: nginx
      ? `${perSecond(nginx.requestsPerSecond)}, p99 ${ms(nginx.latencyMs.p99)} (nginx gzip_static)`
      : `nginx is not installed (apt-get install -y nginx); not compared`,
    ratio: nginx ? ours.requestsPerSecond / nginx.requestsPerSecond : undefined,
    goal: ">= 0.5 of nginx, 0 failed",
    met: nginx ? ours.requestsPerSecond / nginx.requestsPerSecond >= 0.5 && ours.failures === 0 : undefined,
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildIfNeeded("bench");
  printBenchTable(staticBenchRows(await benchStatic()));
}
