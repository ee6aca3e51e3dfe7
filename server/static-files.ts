import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import accepts from "accepts";
import express, { type Express, type RequestHandler } from "express";
import fresh from "fresh";
import type { Logger } from "pino";
import { logAnswer, requestSummary } from "./access-log";
import { hashContentSecurityPolicy } from "./content-security-policy";
import { pageHeaderSet, type SecurityHeaderSet, type SecurityHeaderSets } from "./security-headers";

/** One encoding of a file, held in memory with its validator. */
type Encoded = { content: Buffer; etag: string };

/** A file of the client build as it is served: its headers worked out once at start, its encodings read. */
export type StaticFile = {
  headers: Record<string, string>;
  /** Which security headers it carries: a page's (by its path), an SVG's (a document when opened by itself), a file's. */
  securityHeaders: SecurityHeaderSet;
  identity: Encoded;
  br?: Encoded;
  gzip?: Encoded;
};

/**
 * The kinds of file the build writes, with their types. A table rather than a MIME database since the
 * types are worked out once at start for files we make ourselves; anything else goes to express.static.
 */
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  // React Router's single-fetch data: a script, per its own server.
  ".data": "text/x-script",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".avif": "image/avif",
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Files larger than this are left to express.static, which streams them and answers range requests. */
const HELD_IN_MEMORY_MAX_BYTES = 1024 * 1024;

function encoded(content: Buffer): Encoded {
  return { content, etag: `"${createHash("sha256").update(content).digest("base64url").slice(0, 27)}"` };
}

function readIfPresent(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * The client build by URL path: hashed assets cached for a year, everything else for an hour, and the pages
 * React Router prerendered (`/learnmore` is learnmore/index.html) never without asking again, each with the
 * policy that allows exactly its inline scripts. The public site answers without rendering or compressing
 * anything per request: the build wrote a brotli and a gzip copy beside each text file (scripts/precompress.mjs).
 */
export function loadStaticFiles(clientDir: string, styleSources: readonly string[]): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    const contentType = CONTENT_TYPES[path.extname(entry.name)];
    if (!entry.isFile() || !contentType) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (statSync(file).size > HELD_IN_MEMORY_MAX_BYTES) continue;
    const content = readFileSync(file);
    const urlPath = `/${path.relative(clientDir, file).split(path.sep).join("/")}`;
    const isHtml = entry.name.endsWith(".html");
    const headers: Record<string, string> = {
      "Content-Type": contentType,
      "Cache-Control": isHtml
        ? "no-cache"
        : urlPath.startsWith("/assets/")
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600",
    };
    if (isHtml) headers["Content-Security-Policy"] = hashContentSecurityPolicy(content.toString("utf8"), styleSources);
    const brotli = readIfPresent(`${file}.br`);
    const gzip = readIfPresent(`${file}.gz`);
    if (brotli || gzip) headers.Vary = "Accept-Encoding";
    const pagePath = isHtml && entry.name === "index.html" ? urlPath.slice(0, -"/index.html".length) || "/" : undefined;
    const served: StaticFile = {
      headers,
      securityHeaders: isHtml
        ? pageHeaderSet(pagePath ?? urlPath)
        : entry.name.endsWith(".svg")
          ? "document"
          : "subresource",
      identity: encoded(content),
      br: brotli && encoded(brotli),
      gzip: gzip && encoded(gzip),
    };
    files.set(urlPath, served);
    if (pagePath) files.set(pagePath, served);
  }
  return files;
}

/** What answering a file needs from the server around it. */
export type StaticFileServing = {
  logger: Logger;
  /** The security headers of each kind of file (securityHeaderSets). */
  securityHeaders: SecurityHeaderSets;
  /** The client's address for the log, through the proxies the server trusts. */
  clientAddress: (req: IncomingMessage) => string;
};

/**
 * Answers GET and HEAD for the files above, in the encoding the browser prefers among those at hand, and says
 * whether it did. It runs on node's request, before Express: Express's own work per request (its router, the
 * request and response it dresses up) cost more than the answer, and held the home page to about a third of
 * what nginx serves from the same files. Its access log line is written as soon as the answer is.
 */
export function staticFileAnswerer(files: Map<string, StaticFile>, serving: StaticFileServing) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    const queryStart = url.indexOf("?");
    const file = files.get(queryStart === -1 ? url : url.slice(0, queryStart));
    if (!file) return false;
    // Our preference, the smaller brotli, wherever the browser takes it: browsers list gzip first at equal weight.
    const accepted = accepts(req);
    const [encoding, body] =
      file.br && accepted.encodings(["br"])
        ? ["br", file.br]
        : file.gzip && accepted.encodings(["gzip"])
          ? ["gzip", file.gzip]
          : [undefined, file.identity];
    for (const [name, value] of serving.securityHeaders[file.securityHeaders]) res.setHeader(name, value);
    for (const name in file.headers) res.setHeader(name, file.headers[name] as string);
    res.setHeader("ETag", body.etag);
    if (encoding) res.setHeader("Content-Encoding", encoding);
    const started = Date.now();
    if (fresh(req.headers, { etag: body.etag })) {
      res.statusCode = 304;
      res.end();
    } else {
      res.setHeader("Content-Length", body.content.length);
      res.end(req.method === "HEAD" ? undefined : body.content);
    }
    logAnswer(serving.logger, requestSummary(req.method, url, serving.clientAddress(req)), res, started);
    return true;
  };
}

/**
 * A page has one address: `/learnmore/` and `/LearnMore` answer with a permanent redirect to `/learnmore` (the
 * routes are lower-case; the hashed files under /assets keep their case). Percent-escapes keep theirs. Leading
 * slashes and backslashes collapse to one, since a browser reads a Location of `//evil.example` or
 * `/\evil.example` as another host (and caches a 301 to it).
 */
export const redirectToCanonicalPath: RequestHandler = (req, res, next) => {
  if ((req.method !== "GET" && req.method !== "HEAD") || req.path.startsWith("/assets/")) return next();
  const path = req.path
    .replace(/(.)\/+$/, "$1")
    .replace(/^[/\\]+/, "/")
    .replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (part) => (part.startsWith("%") ? part : part.toLowerCase()));
  if (path === req.path) return next();
  const queryStart = req.originalUrl.indexOf("?");
  const query = queryStart === -1 ? "" : req.originalUrl.slice(queryStart);
  res.redirect(301, path + query);
};

/** The large files left out of memory: hashed assets cached for a year, everything else for an hour. */
export function mountLargeClientFiles(app: Express, clientDir: string): void {
  app.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, redirect: false }),
  );
  app.use(express.static(clientDir, { maxAge: "1h", index: false, redirect: false }));
}
