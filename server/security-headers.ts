import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { KEEPABLE_PAGE_HEADER } from "../app/components/staff/kept-page";
import type { Config } from "../app/server/config.server";

/**
 * The headers every answer carries: helmet's, with the Content-Security-Policy left out (it is set per
 * prerendered page from its inline scripts' hashes, and per rendered page with a nonce), and the
 * Permissions-Policy. They are the same for every answer, so helmet is run once, at start, and its headers are
 * then set in one step: its eleven middlewares, each calling the next, cost more than a small answer's writing.
 */
export function securityHeaders(config: Pick<Config, "NODE_ENV">): [string, string][] {
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
  return [...headers];
}

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

export function subresourceSecurityHeaders(headers: readonly (readonly [string, string])[]): [string, string][] {
  return headers.filter(([name]) => SUBRESOURCE_HEADERS.has(name.toLowerCase())).map(([name, value]) => [name, value]);
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
