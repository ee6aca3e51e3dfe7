import { localSiteUrl, siteUrl } from "./config.server";

/**
 * SITE_URL as the root loader sees it. The public pages are prerendered, so for them this runs at build time:
 * scripts/start.mjs rebuilds when SITE_URL (or, without it, PORT) changes.
 */
export function readSiteUrl(env: Record<string, string | undefined> = process.env): string {
  if (env.SITE_URL) return siteUrl.parse(env.SITE_URL);
  const port = Number(env.PORT);
  return localSiteUrl(Number.isInteger(port) ? port : 0);
}
