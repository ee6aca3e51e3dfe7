import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";

/** A port free right now, for a server that is given PORT rather than choosing one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

describe("a server on its own PORT without SITE_URL", () => {
  let app: AppServer;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    app = await startAppServer({ env: { PORT: String(port), SITE_URL: undefined } });
  });
  afterAll(() => app.stop());

  it("logs the first-admin setup link on that port", () => {
    const line = app.output.find((entry) => entry.includes("No staff account exists yet")) ?? "";
    expect(/"setupUrl":"([^"]+)"/.exec(line)?.[1]).toMatch(new RegExp(`^${origin}/admin/setup\\?token=`));
  });

  it("lists that port's addresses in the sitemap and robots.txt", async () => {
    const sitemap = await (await fetch(`${app.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${origin}/</loc>`);
    expect(sitemap).not.toContain("localhost:3000");
    expect(await (await fetch(`${app.url}/robots.txt`)).text()).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });

  it("gives a page rendered per request (the privacy notice) a canonical tag on that port", async () => {
    const html = await (await fetch(`${app.url}/privacy`)).text();
    expect(html).toContain(`<link rel="canonical" href="${origin}/privacy"/>`);
  });

  it("says at start that the prerendered pages carry the build's SITE_URL instead", () => {
    // The test build is made without SITE_URL or PORT: its pages say http://localhost:3000.
    const warning = app.output.find((entry) => entry.includes("prerendered for http://localhost:3000")) ?? "";
    expect(warning).toContain(`not ${origin}`);
  });
});
