import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import express, { type Express, type RequestHandler } from "express";
import { hashContentSecurityPolicy } from "./content-security-policy";

export type PrerenderedPage = { file: string; contentSecurityPolicy: string };

/**
 * The pages React Router prerendered at build time, by URL path, each with the policy that allows exactly its
 * inline scripts. They are served as files, so the public site answers without rendering anything per request.
 */
export function findPrerenderedPages(clientDir: string): Map<string, PrerenderedPage> {
  const pages = new Map<string, PrerenderedPage>();
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "index.html") continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(clientDir, entry.parentPath).split(path.sep).join("/")}`.replace(/\/$/, "");
    pages.set(urlPath || "/", { file, contentSecurityPolicy: hashContentSecurityPolicy(readFileSync(file, "utf8")) });
  }
  return pages;
}

export function servePrerenderedPages(pages: Map<string, PrerenderedPage>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const page = pages.get(req.path);
    if (!page) return next();
    res.sendFile(page.file, {
      headers: {
        "Cache-Control": "no-cache",
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": page.contentSecurityPolicy,
      },
    });
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

/** Hashed build assets are cached for a year; everything else in the client build for an hour. */
export function mountClientFiles(app: Express, clientDir: string): void {
  app.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, redirect: false }),
  );
  app.use(
    express.static(clientDir, {
      maxAge: "1h",
      index: false,
      redirect: false,
      setHeaders(res, file) {
        if (file.endsWith(".data")) res.setHeader("Content-Type", "text/x-script");
        if (file.endsWith(".html")) res.setHeader("Cache-Control", "no-cache");
      },
    }),
  );
}
