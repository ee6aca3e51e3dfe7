import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../scripts/precompress.mjs";
import { loadStaticFiles, redirectToCanonicalPath, staticFileAnswerer } from "./static-files";

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let port: number;
beforeAll(async () => {
  const app = express();
  app.use(redirectToCanonicalPath);
  app.use((_req, res) => res.status(404).send("not found"));
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The raw request line's path, sent as written: fetch() would tidy some of these before sending. */
function get(path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, method: "GET" }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, location: response.headers.location });
    })
      .on("error", reject)
      .end();
  });
}

describe("the canonical-path redirect", () => {
  it("sends /learnmore/ to /learnmore, keeping the query", async () => {
    expect(await get("/learnmore/?a=1")).toEqual({ status: 301, location: "/learnmore?a=1" });
  });

  it("sends a path of only slashes to the home page", async () => {
    expect(await get("///")).toEqual({ status: 301, location: "/" });
  });

  it.each([["//evil.example/"], ["///evil.example/"], ["/\\evil.example/"], ["//evil.example/path/"]])(
    "never sends %j to another host",
    async (path) => {
      const { status, location } = await get(path);
      expect(status).toBe(301);
      // A Location starting with two slashes (or a slash and a backslash) is another host to a browser.
      expect(location).toMatch(/^\/[^/\\]/);
      expect(new URL(location ?? "", "http://this.site").origin).toBe("http://this.site");
    },
  );

  it.each([["/LEARNMORE"], ["/LIGHTING"], ["/Apply/"]])("sends %j to its lower-case path", async (path) => {
    expect(await get(`${path}?Ref=A`)).toEqual({
      status: 301,
      location: `${path.toLowerCase().replace(/\/$/, "")}?Ref=A`,
    });
  });

  it("leaves the case of hashed assets and of percent-escapes alone", async () => {
    expect((await get("/assets/entry-C23LvMyU.js")).status).toBe(404);
    expect((await get("/caf%C3%A9")).status).toBe(404);
  });

  it.each([["//EVIL.example"], ["/\\EVIL.example"]])("never sends %j to another host", async (path) => {
    const { location } = await get(path);
    expect(new URL(location ?? "", "http://this.site").origin).toBe("http://this.site");
  });
});

describe("the client build's files", () => {
  let filesServer: Server;
  let base: string;
  let buildDir: string;
  const script = `console.log(${JSON.stringify("x".repeat(2000))});\n`;
  const logged: Array<{ req?: { url?: string; remoteAddress?: string }; res?: { statusCode?: number } }> = [];

  beforeAll(async () => {
    buildDir = await mkdtemp(path.join(tmpdir(), "tce-static-"));
    await mkdir(path.join(buildDir, "assets"));
    await mkdir(path.join(buildDir, "learnmore"));
    await mkdir(path.join(buildDir, "apply"));
    await writeFile(path.join(buildDir, "assets/app-1a2b.js"), script);
    await writeFile(path.join(buildDir, "learnmore/index.html"), "<!doctype html><script>let page=1</script>");
    await writeFile(path.join(buildDir, "apply/index.html"), "<!doctype html><form></form>");
    await writeFile(path.join(buildDir, "tiny.svg"), "<svg/>");
    await precompress(buildDir);
    const destination = new Writable({
      write(line, _encoding, done) {
        logged.push(JSON.parse(String(line)));
        done();
      },
    });
    const logger = pino({ level: "info" }, destination);
    const answerStaticFile = staticFileAnswerer(loadStaticFiles(buildDir, []), {
      logger,
      securityHeaders: {
        document: [
          ["X-Content-Type-Options", "nosniff"],
          ["X-Frame-Options", "SAMEORIGIN"],
          ["Cross-Origin-Opener-Policy", "same-origin"],
        ],
        publicPage: [
          ["X-Content-Type-Options", "nosniff"],
          ["X-Frame-Options", "SAMEORIGIN"],
        ],
        subresource: [["X-Content-Type-Options", "nosniff"]],
      },
      clientAddress: () => "203.0.113.9",
    });
    filesServer = createServer((req, res) => {
      if (answerStaticFile(req, res)) return;
      res.statusCode = 404;
      res.end("not ours");
    });
    await new Promise<void>((resolve) => filesServer.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(filesServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => filesServer.close(() => resolve()));
    await rm(buildDir, { recursive: true, force: true });
  });

  /** The raw answer: node:http, unlike fetch(), leaves the body as it came over the wire. */
  function raw(urlPath: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      request(`${base}${urlPath}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    });
  }

  it("sends brotli to a browser that takes it, gzip to one that takes only gzip, and plain text otherwise", async () => {
    const brotli = await raw("/assets/app-1a2b.js", { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    const gzip = await raw("/assets/app-1a2b.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(script);
    const plain = await raw("/assets/app-1a2b.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    for (const answer of [brotli, gzip, plain]) {
      expect(answer.headers.vary).toBe("Accept-Encoding");
      expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(answer.headers["content-length"]).toBe(String(answer.body.length));
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    expect(new Set([brotli, gzip, plain].map((answer) => answer.headers.etag)).size).toBe(3);
  });

  it("answers 304 when the browser's copy in that encoding is current", async () => {
    const first = await raw("/assets/app-1a2b.js", { "accept-encoding": "br" });
    const again = await raw("/assets/app-1a2b.js", {
      "accept-encoding": "br",
      "if-none-match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("serves a prerendered page at its address, never cached without asking, with its inline script's hash", async () => {
    const page = await raw("/learnmore", { "accept-encoding": "br" });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    const hash = createHash("sha256").update("let page=1").digest("base64");
    expect(page.headers["content-security-policy"]).toContain(`'sha256-${hash}'`);
  });

  it("sends a file too small to be worth compressing as it is, without Vary", async () => {
    const icon = await raw("/tiny.svg", { "accept-encoding": "br, gzip" });
    expect(icon.headers["content-encoding"]).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
    expect(icon.body.toString()).toBe("<svg/>");
  });

  it("writes one access log line per answer, with the client's address and the query's names only", async () => {
    const before = logged.length;
    await raw("/learnmore?ref=flyer");
    expect(logged.slice(before)).toEqual([
      expect.objectContaining({
        req: expect.objectContaining({ url: "/learnmore?ref", remoteAddress: "203.0.113.9" }),
        res: { statusCode: 200 },
      }),
    ]);
  });

  it("gives a marketing page its own headers, any other page and an SVG a document's, and a script a file's", async () => {
    const headersOf = async (urlPath: string) => {
      const { headers } = await raw(urlPath);
      return { frame: headers["x-frame-options"], opener: headers["cross-origin-opener-policy"] };
    };
    for (const marketingPage of ["/learnmore", "/learnmore/index.html"])
      expect(await headersOf(marketingPage), marketingPage).toEqual({ frame: "SAMEORIGIN", opener: undefined });
    for (const document of ["/apply", "/apply/index.html", "/tiny.svg"])
      expect(await headersOf(document), document).toEqual({ frame: "SAMEORIGIN", opener: "same-origin" });
    expect(await headersOf("/assets/app-1a2b.js")).toEqual({ frame: undefined, opener: undefined });
  });

  it("gives a file the headers every answer carries, and leaves what is no file of the build to the app", async () => {
    expect((await raw("/learnmore")).headers["x-content-type-options"]).toBe("nosniff");
    const missing = await raw("/assets/app-9z9z.js");
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe("not ours");
    const posted = await new Promise<number>((resolve, reject) => {
      request(`${base}/learnmore`, { method: "POST" }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(posted).toBe(404);
  });
});
