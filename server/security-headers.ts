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
