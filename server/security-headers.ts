import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { KEEPABLE_PAGE_HEADER } from "../app/components/staff/kept-page";
import { marketingPagePaths } from "../app/content/public-pages";
import type { Config } from "../app/services/config.server";

/** A header's name and value, as `res.setHeader` takes them. */
export type Header = readonly [string, string];

/**
 * The security headers by what an answer is:
 * - `document`: every page and every other answer Express makes, and SVG files (a document when opened by
 *   themselves): helmet's set, the Permissions-Policy, and HSTS in production.
 * - `publicPage`: the public marketing pages, their prerendered files and what React Router renders of them for a
 *   GET: the same without `Cross-Origin-Opener-Policy` (decision 1008).
 * - `subresource`: a script, stylesheet, image or font of the build: only what governs a file (decision 0909).
 * The Content-Security-Policy is set apart: per prerendered page from its inline scripts' hashes, and per
 * rendered page with a nonce.
 */
export type SecurityHeaderSets = Record<"document" | "publicPage" | "subresource", readonly Header[]>;
export type SecurityHeaderSet = keyof SecurityHeaderSets;

/**
 * COOP puts a page in a browsing context group of its own, so that no window of another site that opened it, or
 * that it opens, holds a handle on it. The browser pays for it on every navigation into the site (a switch of
 * group: about 100 ms of Lighthouse's total blocking time on a phone, decision 1008). A marketing page holds
 * nothing such a window could reach: no session, no secret, no answer of the visitor's. Every other page keeps it:
 * sign-in and the staff pages (a session), the careers forms (an applicant's answers), and whatever else is added.
 */
const COOP = "cross-origin-opener-policy";

/**
 * What a file that is not a document (a script, a stylesheet, an image, a font) needs of those headers: nosniff
 * (a file is only ever read as its own type), CORP (no other site may load it) and HSTS. The others govern a
 * document (framing, referrers, permissions, its agent cluster, its window's opener) and a browser ignores them on
 * a subresource, where they were about 470 bytes of each of a page's dozen images (decision 0909).
 */
const SUBRESOURCE_HEADERS = new Set([
  "x-content-type-options",
  "cross-origin-resource-policy",
  "strict-transport-security",
]);

/**
 * The sets above: helmet's headers with the Content-Security-Policy left out, and the Permissions-Policy. They are
 * the same for every answer of a kind, so helmet is run once, at start, and its headers are then set in one step:
 * its eleven middlewares, each calling the next, cost more than a small answer's writing.
 */
export function securityHeaderSets(config: Pick<Config, "NODE_ENV">): SecurityHeaderSets {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: config.NODE_ENV === "production" ? { maxAge: 31_536_000 } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  })(
    // helmet only sets and removes headers on the answer; it reads nothing of the request.
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => undefined,
  );
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
  const document = [...headers];
  const named = (keep: (name: string) => boolean) => document.filter(([name]) => keep(name.toLowerCase()));
  return {
    document,
    publicPage: named((name) => name !== COOP),
    subresource: named((name) => SUBRESOURCE_HEADERS.has(name)),
  };
}

const PUBLIC_PAGE_PATHS: ReadonlySet<string> = new Set(marketingPagePaths);

/** The set of the page at `pagePath` (a URL path, without its query). */
export function pageHeaderSet(pagePath: string): "document" | "publicPage" {
  return PUBLIC_PAGE_PATHS.has(pagePath) ? "publicPage" : "document";
}

/**
 * For the answers Express makes: each gets its page's set, but an answer to a post, which holds what the visitor
 * sent (a marketing page's estimate form, posted without JavaScript, answers with their values or their
 * reference), gets a document's.
 */
export function setSecurityHeaders(sets: SecurityHeaderSets): RequestHandler {
  return (req, res, next) => {
    const set = req.method === "GET" || req.method === "HEAD" ? pageHeaderSet(req.path) : "document";
    for (const [name, value] of sets[set]) res.setHeader(name, value);
    next();
  };
}

/** The sign-in page, the staff screens and their `.data` answers, downloads and resource routes. */
const STAFF_PATH = /^\/admin(?:[/.]|$)/;

const NO_STORE = /\bno-store\b/i;

/**
 * No staff answer is kept by the browser's cache: after Log out on a shared computer, Back must not show a staff
 * page again. Every answer under /admin (pages, `.data`, file downloads, the CSV, PDFs, errors and redirects) says
 * `no-store`, set as its headers go out, after the route's own. The staff app's worker keeps a tool's page by a
 * rule of its own: an answer whose route did not say no-store itself is marked keepable (KEEPABLE_PAGE_HEADER);
 * one with a customer's details says no-store and is not. The build's files under /admin (the worker, the
 * manifest, the icons) are answered before Express and keep their own caching.
 */
export const staffAnswersNotStored: RequestHandler = (req, res, next) => {
  if (STAFF_PATH.test(req.path)) {
    const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const own = String(res.getHeader("Cache-Control") ?? "");
      if (NO_STORE.test(own)) {
        res.removeHeader(KEEPABLE_PAGE_HEADER);
      } else {
        res.setHeader(KEEPABLE_PAGE_HEADER, "yes");
        res.setHeader("Cache-Control", "no-store");
      }
      return writeHead.apply(res, args);
    }) as typeof res.writeHead;
  }
  next();
};
