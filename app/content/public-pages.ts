/**
 * The marketing pages: rendered without React in the browser (publicPageHandle), with only their own
 * stylesheet and one small script.
 */
export const marketingPagePaths = ["/", "/learnmore", "/lighting", "/healthcare", "/education", "/commercial"] as const;

/** The public pages: prerendered at build time and listed in the sitemap. */
export const publicPagePaths = [...marketingPagePaths, "/apply"] as const;
