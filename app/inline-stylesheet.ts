import siteStylesheet from "./app.css?inline";
import publicPagesStylesheet from "./public-pages.css?inline";

/**
 * The stylesheets inlined into a page's head: small enough that a separate request would only delay the first
 * paint on slow phones. Public marketing pages get the one with only their classes, every other page the whole
 * site's. The Content-Security-Policy allows both by their hashes (entry.server.tsx).
 */
export const inlineStylesheets = { publicPages: publicPagesStylesheet, site: siteStylesheet } as const;
