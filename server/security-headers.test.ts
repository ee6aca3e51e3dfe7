import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { startStaffSession } from "#tests/staff-session";
import { marketingPagePaths } from "../app/content/public-pages";

let app: AppServer;
beforeAll(async () => {
  app = await startAppServer();
});
afterAll(() => app.stop());

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

function inlineScripts(html: string): string[] {
  return Array.from(html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g), (match) => match[2] ?? "");
}

function expectBaseline(response: Response, page: string) {
  const csp = directives(response.headers.get("content-security-policy"));
  expect(csp.get("script-src"), page).not.toContain("'unsafe-inline'");
  expect(csp.get("object-src"), page).toEqual(["'none'"]);
  expect(csp.get("base-uri"), page).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors"), page).toEqual(["'none'"]);
  expect(csp.get("frame-src"), page).toEqual(["https://www.google.com"]);
  expect(response.headers.get("strict-transport-security"), page).toMatch(/max-age=\d{7,}/);
  expect(response.headers.get("x-content-type-options"), page).toBe("nosniff");
  expect(response.headers.get("referrer-policy"), page).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("permissions-policy"), page).toContain("camera=()");
  return csp;
}

describe("security headers", () => {
  it("allow exactly the inline scripts of a prerendered page, by hash", async () => {
    for (const page of ["/", "/learnmore"]) {
      const response = await fetch(`${app.url}${page}`);
      const html = await response.text();
      const csp = expectBaseline(response, page);
      const scripts = inlineScripts(html);
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const script of scripts) {
        const hash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
        expect(csp.get("script-src"), page).toContain(hash);
      }
    }
  });

  it("give a server-rendered page a fresh nonce that every inline script carries", async () => {
    const nonces = [];
    for (const page of ["/admin", "/no-such-page"]) {
      const response = await fetch(`${app.url}${page}`);
      const html = await response.text();
      const csp = expectBaseline(response, page);
      const nonce = csp.get("script-src")?.find((source) => source.startsWith("'nonce-"));
      expect(nonce, page).toBeDefined();
      const value = nonce?.slice("'nonce-".length, -1);
      nonces.push(value);
      const tags = Array.from(html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>/g), (match) => match[1] ?? "");
      expect(tags.length, page).toBeGreaterThan(0);
      for (const attributes of tags.filter((tag) => !tag.includes("application/ld+json"))) {
        expect(attributes, page).toContain(`nonce="${value}"`);
      }
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("are all on a page and an SVG; a script or an image carries only those that govern a file", async () => {
    const html = await (await fetch(`${app.url}/`)).text();
    const assets = await readdir(path.join(projectRoot, "build/client/assets"));
    const subresources = [
      /<img[^>]*\ssrc="([^"]+)"/.exec(html)?.[1],
      `/assets/${assets.find((name) => name.endsWith(".js"))}`,
    ];
    expect(subresources).toHaveLength(2);
    for (const file of subresources) {
      const response = await fetch(`${app.url}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("x-content-type-options"), file).toBe("nosniff");
      expect(response.headers.get("cross-origin-resource-policy"), file).toBe("same-origin");
      expect(response.headers.get("strict-transport-security"), file).toMatch(/max-age=\d{7,}/);
      for (const documentOnly of ["x-frame-options", "referrer-policy", "permissions-policy", "x-xss-protection"])
        expect(response.headers.get(documentOnly), `${file} ${documentOnly}`).toBeNull();
    }
    for (const document of ["/", "/favicon.svg"]) {
      const response = await fetch(`${app.url}${document}`);
      expect(response.headers.get("x-frame-options"), document).toBe("SAMEORIGIN");
      expect(response.headers.get("referrer-policy"), document).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("permissions-policy"), document).toContain("camera=()");
    }
  });

  it("allow no inline style but the page's own stylesheet, by its hash, on prerendered and rendered pages", async () => {
    for (const page of ["/", "/learnmore", "/admin", "/no-such-page"]) {
      const response = await fetch(`${app.url}${page}`);
      const html = await response.text();
      const styleSources = directives(response.headers.get("content-security-policy")).get("style-src") ?? [];
      expect(styleSources, page).not.toContain("'unsafe-inline'");
      const stylesheets = Array.from(html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g), (match) => match[1] ?? "");
      expect(stylesheets.length, page).toBeGreaterThan(0);
      for (const stylesheet of stylesheets) {
        const hash = `'sha256-${createHash("sha256").update(stylesheet).digest("base64")}'`;
        expect(styleSources, page).toContain(hash);
      }
      expect(html, page).not.toMatch(/\sstyle="/);
    }
  });

  it("put a page that holds a session or an applicant's answers in a window group of its own, and no public page", async () => {
    const { cookie } = await startStaffSession({ dataDir: app.dataDir, role: "admin", label: "security-headers" });
    const pages = [
      // Signed out: the sign-in form; signed in: the staff pages, rendered and as data.
      { page: "/admin", cookie: undefined, status: 200 },
      { page: "/admin/quick-links", cookie, status: 200 },
      { page: "/admin/inbox", cookie, status: 200 },
      { page: "/admin/inbox.data", cookie, status: 200 },
      // The careers forms, prerendered or rendered, and pages rendered per request.
      { page: "/apply", cookie: undefined, status: 200 },
      { page: "/assessment", cookie: undefined, status: 200 },
      { page: "/privacy", cookie: undefined, status: 200 },
      { page: "/no-such-page", cookie: undefined, status: 404 },
      { page: "/favicon.svg", cookie: undefined, status: 200 },
    ];
    for (const { page, cookie, status } of pages) {
      const response = await fetch(`${app.url}${page}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
      expect(response.status, page).toBe(status);
      expect(response.headers.get("cross-origin-opener-policy"), page).toBe("same-origin");
    }
    // A marketing page's estimate form posted without JavaScript: the answer holds what the visitor sent.
    const posted = await fetch(`${app.url}/lighting`, {
      method: "POST",
      headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: "name=Pat",
    });
    expect(await posted.text()).toContain("<html");
    expect(posted.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    // The marketing pages, at their address and as their prerendered file, keep the rest of the baseline.
    for (const page of [...marketingPagePaths, "/learnmore/index.html"]) {
      const response = await fetch(`${app.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get("cross-origin-opener-policy"), page).toBeNull();
      expectBaseline(response, page);
      expect(response.headers.get("x-frame-options"), page).toBe("SAMEORIGIN");
      expect(response.headers.get("cross-origin-resource-policy"), page).toBe("same-origin");
      expect(response.headers.get("origin-agent-cluster"), page).toBe("?1");
    }
  });
});
