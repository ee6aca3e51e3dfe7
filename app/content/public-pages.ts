import { skillsTests } from "./careers";
import { privacyPath } from "./privacy";

/**
 * The marketing pages: rendered without React in the browser (publicPageHandle), with only their own
 * stylesheet and one small script.
 */
export const marketingPagePaths = ["/", "/learnmore", "/lighting", "/healthcare", "/education", "/commercial"] as const;

/** The public pages prerendered at build time. */
export const publicPagePaths = [...marketingPagePaths, "/apply"] as const;

/**
 * Every page a search engine may list: the prerendered ones, the privacy notice (rendered per request, with the
 * running retention periods), and the careers area's skills tests.
 */
export const sitemapPaths: readonly string[] = [
  ...publicPagePaths,
  privacyPath,
  ...skillsTests.tests.map((test) => test.path),
];
