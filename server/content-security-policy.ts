import { createHash, randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import { company } from "../app/content/company";

/**
 * The Content-Security-Policy of every response. Scripts run only from our origin, plus the inline scripts
 * React Router writes into each page: by a per-request nonce on server-rendered pages, and by their hashes
 * on prerendered pages, whose HTML is fixed at build time. Styles may be inline (the page's own
 * stylesheet is inlined for a fast first paint); the only frame allowed is the map on the about page.
 */
export function contentSecurityPolicy(scriptSources: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    // blob: for the previews a page makes of files picked on the device (the checklist's photos).
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${new URL(company.map.src).origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For the pages React Router renders: a fresh nonce in `res.locals.cspNonce`, and the policy that allows it. */
export const nonceContentSecurityPolicy: RequestHandler = (_req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader("Content-Security-Policy", contentSecurityPolicy([`'nonce-${nonce}'`]));
  next();
};

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The policy of a prerendered page: the SHA-256 of each of its inline scripts. */
export function hashContentSecurityPolicy(html: string): string {
  const hashes = Array.from(html.matchAll(INLINE_SCRIPT), (match) => {
    const digest = createHash("sha256")
      .update(match[1] ?? "")
      .digest("base64");
    return `'sha256-${digest}'`;
  });
  return contentSecurityPolicy([...new Set(hashes)]);
}
