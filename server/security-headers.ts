import type { IncomingMessage, ServerResponse } from "node:http";
import helmet from "helmet";
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
