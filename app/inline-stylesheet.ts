import stylesheet from "./app.css?inline";

/**
 * The site's whole stylesheet, inlined into every page's head: it is small, and a separate request would delay
 * the first paint on slow phones. The Content-Security-Policy allows it by its hash (entry.server.tsx).
 */
export const inlineStylesheet: string = stylesheet;
