/** The public marketing pages: prerendered at build time and listed in the sitemap. */
export const publicPagePaths = [
  "/",
  "/learnmore",
  "/lighting",
  "/healthcare",
  "/education",
  "/commercial",
  "/apply",
] as const;
