import type { RequestHandler } from "express";

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

/** Form posts are small; a file upload is capped by its own handler too. Bigger bodies are refused unread. */
const BODY_LIMITS = { form: 64 * 1024, multipart: 8 * 1024 * 1024 } as const;

/**
 * Refuses request bodies over the limits before anything reads them. A form body without a declared length
 * (chunked) is refused too: browsers always declare it, and an undeclared one could be of any size. A chunked
 * multipart body passes on to the upload's own parser, which caps it while it streams (see /apply).
 */
export const limitRequestBodies: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const multipart = Boolean(req.is("multipart/form-data"));
  const declared = req.get("content-length");
  if (declared === undefined) {
    if (req.get("transfer-encoding") === undefined || multipart) return next();
    res.status(411).type("text/plain").send("Please send the form again; its length was not given.");
    return;
  }
  if (Number(declared) > (multipart ? BODY_LIMITS.multipart : BODY_LIMITS.form)) {
    res.setHeader("Connection", "close");
    res.status(413).type("text/plain").send("The form is too large to accept.");
    return;
  }
  next();
};
