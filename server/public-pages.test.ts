import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { publicPagePaths } from "../app/content/public-pages";
import { servicePages } from "../app/content/services";

const PAGES = [...publicPagePaths];
// The build that the tests run against is made with SITE_URL unset.
const SITE_URL = "http://localhost:3000";

function attribute(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

describe("the prerendered public pages", () => {
  let app: AppServer;
  const html = new Map<string, string>();
  beforeAll(async () => {
    app = await startAppServer();
    for (const page of PAGES) html.set(page, await (await fetch(`${app.url}${page}`)).text());
  });
  afterAll(() => app.stop());

  it("have a unique title and description each", () => {
    const titles = PAGES.map((page) => attribute(html.get(page) ?? "", /<title>([^<]+)<\/title>/));
    const descriptions = PAGES.map((page) =>
      attribute(html.get(page) ?? "", /<meta name="description" content="([^"]+)"/),
    );
    expect(titles.every(Boolean)).toBe(true);
    expect(descriptions.every((description) => (description?.length ?? 0) > 50)).toBe(true);
    expect(new Set(titles).size).toBe(PAGES.length);
    expect(new Set(descriptions).size).toBe(PAGES.length);
  });

  it("carry a canonical URL and Open Graph tags from SITE_URL", () => {
    for (const page of PAGES) {
      const body = html.get(page) ?? "";
      const expected = `${SITE_URL}${page === "/" ? "/" : page}`;
      expect(attribute(body, /<link rel="canonical" href="([^"]+)"/), page).toBe(expected);
      expect(attribute(body, /<meta property="og:url" content="([^"]+)"/), page).toBe(expected);
      expect(attribute(body, /<meta property="og:title" content="([^"]+)"/), page).toBeTruthy();
      expect(attribute(body, /<meta property="og:image" content="([^"]+)"/), page).toMatch(`${SITE_URL}/images/`);
    }
  });

  it("describe the business as an Electrician in JSON-LD", () => {
    const json = attribute(html.get("/") ?? "", /<script type="application\/ld\+json">([^<]+)<\/script>/);
    expect(JSON.parse(json ?? "{}")).toMatchObject({
      "@type": "Electrician",
      name: "Example Electric Co.",
      url: `${SITE_URL}/`,
      telephone: "(803) 555-0142",
      address: { addressLocality: "Sumter", addressRegion: "SC", postalCode: "29150" },
      areaServed: expect.arrayContaining([expect.objectContaining({ name: "Sumter County, SC" })]),
      openingHoursSpecification: expect.arrayContaining([
        {
          "@type": "OpeningHoursSpecification",
          dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
          opens: "07:00",
          closes: "17:00",
        },
      ]),
      hasCredential: expect.objectContaining({ credentialCategory: "license", identifier: "M-000000" }),
    });
  });

  it("are readable without JavaScript: the content is in the HTML", () => {
    expect(html.get("/")).toContain("Welcome to Example Electric Co.");
    expect(html.get("/learnmore")).toContain("PO Box 555");
    for (const page of servicePages) {
      expect(html.get(page.path)).toContain(page.paragraphs[0].slice(0, 60));
    }
  });

  it("carry the address, phone, credits and outside links in the footer", () => {
    const footer = (/<footer[\s\S]*<\/footer>/.exec(html.get("/") ?? "")?.[0] ?? "").replaceAll("<!-- -->", "");
    expect(footer).toContain("123 Example Street, Sumter, SC 29150");
    expect(footer).toMatch(/<a href="tel:\+18035550142"[^>]*>\(803\) 555-0142<\/a>/);
    expect(footer).toMatch(
      /<a href="https:\/\/www\.facebook\.com\/example"[^>]*>Example Electric Co\. on Facebook<\/a>/,
    );
    expect(footer).toMatch(/<a href="https:\/\/example\.com\/"[^>]*>Site by Example Web Studio<\/a>/);
    expect(footer).toContain(`© ${new Date().getFullYear()} Example Electric Co. All rights reserved.`);
    expect(footer).toContain("Privacy &amp; Terms");
  });

  it("show the license, insurance, hours and the after-hours number in the footer, which links the privacy notice", () => {
    const footer = /<footer[\s\S]*<\/footer>/.exec(html.get("/healthcare") ?? "")?.[0] ?? "";
    expect(footer).toContain("Licensed and insured");
    expect(footer).toContain("License No. M-000000");
    expect(footer).toContain("Monday to Friday, 7:00 AM to 5:00 PM");
    expect(footer).toMatch(/<a href="tel:\+18035550143"[^>]*>\(803\) 555-0143<\/a>/);
    expect(footer).toMatch(/<a href="\/privacy"[^>]*>Privacy &amp; Terms<\/a>/);
  });

  it("show the trust details on the about page, and a link to a maps site that works without the lazy embed", () => {
    const about = html.get("/learnmore") ?? "";
    expect(about).toMatch(/<h2[^>]*>Licensed, insured, and easy to reach<\/h2>/);
    expect(about).toContain("Saturday, 8:00 AM to 12:00 PM");
    expect(about).toMatch(
      /<a href="https:\/\/www\.google\.com\/maps\/search\/\?api=1&amp;query=[^"]+"[^>]*>Open <!-- -->123 Example Street, Sumter, SC 29150<!-- --> in Google Maps<\/a>/,
    );
    expect(about).toMatch(/<iframe [^>]*loading="lazy"/);
  });

  it("say on /apply what the skills quiz and assessment are, link them, and carry the consent line", () => {
    const apply = html.get("/apply") ?? "";
    const skills = /<section[^>]*aria-labelledby="skills-tests-heading"[\s\S]*?<\/section>/.exec(apply)?.[0] ?? "";
    expect(skills).toContain("five-question practice quiz");
    expect(skills).toContain("18-question electrical skills assessment");
    expect(skills).toMatch(/<a [^>]*href="\/assessment"[^>]*>Skills Assessment<\/a>/);
    expect(apply).toMatch(/<a href="\/privacy"[^>]*>privacy notice<\/a>/);
    const footer = /<footer[\s\S]*<\/footer>/.exec(apply)?.[0] ?? "";
    expect(footer).toMatch(/<a [^>]*href="\/quiz"[^>]*>Skills Quiz<\/a>/);
  });

  it("load every image from our own origin, in AVIF and WebP with a JPEG fallback and fixed dimensions", () => {
    for (const page of PAGES) {
      const body = html.get(page) ?? "";
      const images = body.match(/<img [^>]+>/g) ?? [];
      expect(images.length, page).toBeGreaterThan(0);
      for (const img of images) {
        expect(img, page).toMatch(/ src="\/images\/[a-z0-9-]+-\d+\.jpg"/);
        expect(img, page).toMatch(/ width="\d+"/);
        expect(img, page).toMatch(/ height="\d+"/);
      }
      expect(body.match(/<source type="image\/avif"/g)?.length, page).toBe(images.length);
      expect(body.match(/<source type="image\/webp"/g)?.length, page).toBe(images.length);
      expect(body, page).not.toMatch(/<(img|source)[^>]+(src|srcset)="https?:/i);
    }
  });

  it("preload the first banner image with high priority, from the head", () => {
    const home = html.get("/") ?? "";
    const head = home.slice(0, home.indexOf("</head>"));
    const preload = /<link rel="preload" as="image"[^>]*>/.exec(head)?.[0];
    expect(preload).toContain('imageSrcSet="/images/hero-1-320.avif 320w');
    expect(preload).toContain('fetchPriority="high"');
    const firstHeroImage = /<img [^>]*src="\/images\/hero-1-1920\.jpg"[^>]*>/.exec(home)?.[0];
    expect(firstHeroImage).toContain('fetchPriority="high"');
    expect(firstHeroImage).toContain('loading="eager"');
  });

  it("are served as files, with every image rendition present", async () => {
    const home = html.get("/") ?? "";
    const sources = new Set(
      [...home.matchAll(/\/images\/[a-z0-9-]+-\d+\.(?:avif|webp|jpg)/g)].map((match) => match[0]),
    );
    for (const source of sources) {
      const response = await fetch(`${app.url}${source}`, { method: "HEAD" });
      expect(response.status, source).toBe(200);
    }
  });

  it("list themselves, the privacy notice and the skills tests in sitemap.xml, which robots.txt points to", async () => {
    const sitemap = await (await fetch(`${app.url}/sitemap.xml`)).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      [...PAGES, "/privacy", "/quiz", "/assessment"].map((page) => `${SITE_URL}${page === "/" ? "/" : page}`),
    );
    for (const page of ["/privacy", "/quiz", "/assessment"])
      expect((await fetch(`${app.url}${page}`)).status).toBe(200);
    const robots = await (await fetch(`${app.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
  });
});

describe("requests outside the pages", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer();
  });
  afterAll(() => app.stop());

  it("answers an unknown address with the friendly not-found page and 404, linking the home page", async () => {
    const response = await fetch(`${app.url}/no-such-page`);
    expect(response.status).toBe(404);
    const page = await response.text();
    expect(page).toMatch(/<h1[^>]*>We couldn&#x27;t find that page<\/h1>/);
    const main = /<main[\s\S]*<\/main>/.exec(page)?.[0] ?? "";
    expect(main).toMatch(/<a [^>]*href="\/"[^>]*>Go to the home page<\/a>/);
  });

  it("answers a malformed URL with the site's own error page and 400", async () => {
    const response = await fetch(`${app.url}/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const body = await response.text();
    expect(body).toContain("Go to the home page");
    expect(body).toContain("Skip to content");
  });

  it("sends a visit to the estimate form's answer route on to the form, without an error in the log", async () => {
    const response = await fetch(`${app.url}/forms/estimate`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/learnmore#form");
    expect((await app.flushedOutput()).some((line) => line.includes('"level":50'))).toBe(false);
  });

  it("answers OPTIONS with 204 and Allow, without an error in the log", async () => {
    const response = await fetch(`${app.url}/lighting`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect((await app.flushedOutput()).some((line) => line.includes('"level":50'))).toBe(false);
  });

  it.each([["/LEARNMORE"], ["/LIGHTING"]])("redirects %s to its lower-case page", async (path) => {
    const response = await fetch(`${app.url}${path}`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(path.toLowerCase());
  });
});

describe("the privacy notice", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer({ env: { RESUME_RETENTION_DAYS: "45" } });
  });
  afterAll(() => app.stop());

  it("states the retention periods the running retention job applies, and is linked from every public page", async () => {
    const privacy = await (await fetch(`${app.url}/privacy`)).text();
    expect(privacy).toContain("its resume is deleted 45 days later");
    expect(privacy).toContain("deleted after 30 days");
    expect(privacy).toMatch(/<h1[^>]*>Privacy &amp; Terms<\/h1>/);
    expect(privacy).toMatch(/<h2[^>]*>How long we keep it<\/h2>/);
    for (const page of PAGES) {
      expect(await (await fetch(`${app.url}${page}`)).text(), page).toMatch(
        /<a href="\/privacy"[^>]*>Privacy &amp; Terms/,
      );
    }
  });
});
