import { configSchema } from "./config.server";

/**
 * SITE_URL as the root loader sees it. The public pages are prerendered, so for them this runs at build time:
 * scripts/start.mjs rebuilds when SITE_URL changes.
 */
export function readSiteUrl(env: Record<string, string | undefined> = process.env): string {
  return configSchema.shape.SITE_URL.parse(env.SITE_URL || undefined);
}
