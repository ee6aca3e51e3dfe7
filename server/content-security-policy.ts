import { createHash, randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { company } from "../app/content/company";

/** What a page's inline scripts and stylesheets are allowed by: nonces or hashes, as CSP source expressions. */
export type InlineSources = { scripts: readonly string[]; styles: readonly string[] };

/**
 * An empty inline stylesheet, by its hash. React creates the root's <style> element empty in the browser and then
 * fills it; the empty moment must not count as a violation. It allows nothing but an empty stylesheet.
 */
const EMPTY_STYLESHEET = `'sha256-${createHash("sha256").update("").digest("base64")}'`;

/**
 * The Content-Security-Policy of every response. Scripts run only from our origin, plus the inline scripts
 * React Router writes into each page: by a per-request nonce on server-rendered pages, and by their hashes
 * on prerendered pages, whose HTML is fixed at build time. Styles come from our origin and the one inlined
 * stylesheet, by its hash; no inline style attribute is allowed. The only frame allowed is the map.
 */
export function contentSecurityPolicy(inline: InlineSources): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inline.scripts.join(" ")}`.trim(),
    `style-src 'self' ${[...inline.styles, EMPTY_STYLESHEET].join(" ")}`,
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

/**
 * The hashes of the inline stylesheets rendered pages carry, as the build's entry.server.tsx exports them. A
 * build without them allows no inline style, which shows at once as an unstyled page, never as a weaker policy.
 */
export function inlineStyleSourcesOf(build: ServerBuild): string[] {
  const sources: unknown = Reflect.get(build.entry.module, "inlineStyleSources");
  return Array.isArray(sources) ? sources.filter((source): source is string => typeof source === "string") : [];
}

/** For the pages React Router renders: a fresh nonce in `res.locals.cspNonce`, and the policy that allows it. */
export function nonceContentSecurityPolicy(styleSources: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader(
      "Content-Security-Policy",
      contentSecurityPolicy({ scripts: [`'nonce-${nonce}'`], styles: styleSources }),
    );
    next();
  };
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style[^>]*>([\s\S]*?)<\/style>/g;

function hashSources(html: string, pattern: RegExp): string[] {
  const hashes = Array.from(html.matchAll(pattern), (match) => {
    const digest = createHash("sha256")
      .update(match[1] ?? "")
      .digest("base64");
    return `'sha256-${digest}'`;
  });
  return [...new Set(hashes)];
}

/**
 * The policy of a prerendered page: the SHA-256 of each of its inline scripts and stylesheets, and the build's
 * other inline stylesheets (`styleSources`), which the page's head switches to when the browser moves on to a
 * page that uses another one.
 */
export function hashContentSecurityPolicy(html: string, styleSources: readonly string[]): string {
  const styles = new Set([...hashSources(html, INLINE_STYLE), ...styleSources]);
  return contentSecurityPolicy({ scripts: hashSources(html, INLINE_SCRIPT), styles: [...styles] });
}
