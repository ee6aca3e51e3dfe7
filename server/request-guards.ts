import type { RequestHandler } from "express";
import { submissionTypes } from "../app/features/submission-types.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request that a browser made on behalf of another site (CSRF), on top of the
 * SameSite cookie. Browsers send `Origin` on every POST; `Sec-Fetch-Site` is the fallback. A request with
 * neither comes from no browser and carries no visitor's cookies, so it passes.
 */
export function requireSameOrigin(siteUrl: string): RequestHandler {
  const canonicalOrigin = new URL(siteUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    const allowed =
      origin !== undefined
        ? origin === ownOrigin || origin === canonicalOrigin
        : site === undefined || site === "same-origin" || site === "none";
    if (allowed) return next();
    req.log.warn({ origin, site }, "cross-site request refused");
    res.status(403).type("text/plain").send("This request came from another site and was refused.");
  };
}

/**
 * Form posts are small; a multipart post may be as large as the largest form's body (the checklist's photos),
 * and each form's own, smaller cap is applied by its action. Bigger declared bodies are refused unread.
 */
const BODY_LIMITS = {
  form: 64 * 1024,
  multipart: Math.max(...submissionTypes.map((definition) => definition.maxBodyBytes)),
} as const;

/**
 * Refuses request bodies declared over the limits before anything reads them. A body without a declared length
 * (chunked) passes on: every action reads its body through readFormBody (app/forms), which stops at its form's
 * cap while the body streams in.
 */
export const limitRequestBodies: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const declared = req.get("content-length");
  const limit = req.is("multipart/form-data") ? BODY_LIMITS.multipart : BODY_LIMITS.form;
  if (declared !== undefined && Number(declared) > limit) {
    res.status(413).type("text/plain").send("The form is too large to accept.");
    return;
  }
  next();
};

/** How long, and how much of it, a body refused part-way is read and dropped after the answer went out. */
const LINGER = { ms: 1_000, bytes: 8 * 1024 * 1024 };

/**
 * An answer that goes out before its request's body has all arrived (a body refused unread, or past its cap)
 * must reach the client. Closing the connection while the client still sends makes the server's kernel reset
 * it, and the reset can destroy the answer on the client's side before it is read: the person would see a
 * network error instead of the message. So, as nginx's "lingering close" does, the rest is read and dropped
 * for a moment (up to LINGER.bytes, never held) and the connection cut only after LINGER.ms if it is still
 * going. A client that stops sending in that time keeps its connection.
 */
export const lingerWhenBodyUnread: RequestHandler = (req, res, next) => {
  // A request with no body is not complete yet while a middleware answers it at once; it needs nothing here.
  const hasBody = req.get("transfer-encoding") !== undefined || Number(req.get("content-length") ?? 0) > 0;
  if (!hasBody) return next();
  res.once("finish", () => {
    if (req.complete) return;
    const cut = setTimeout(() => req.socket.destroy(), LINGER.ms);
    req.once("end", () => clearTimeout(cut));
    let dropped = 0;
    // The action's reader stopped at the cap and is gone; its listener would keep what comes.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER.bytes) req.pause();
    });
    req.resume();
  });
  next();
};

/** The methods the site answers; anything else reaches no page. */
const ALLOWED_METHODS = "GET, HEAD, POST";

/**
 * `OPTIONS` asks what a URL allows. No cross-origin use is offered (no CORS), so the answer is the same
 * everywhere: 204 with `Allow`, without rendering a page or logging an error.
 */
export const answerOptions: RequestHandler = (req, res, next) => {
  if (req.method !== "OPTIONS") return next();
  res.status(204).set("Allow", ALLOWED_METHODS).end();
};

/** A path with a broken percent-escape, which no page and no file can have. */
export function isMalformedPath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}
