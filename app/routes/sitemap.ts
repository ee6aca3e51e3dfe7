import { sitemapPaths } from "~/content/public-pages";
import { readSiteUrl } from "~/services/site-url.server";

export function loader() {
  const siteUrl = readSiteUrl();
  const urls = sitemapPaths.map((path) => `  <url><loc>${siteUrl}${path === "/" ? "/" : path}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
