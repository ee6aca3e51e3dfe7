import { request } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redirectToCanonicalPath } from "./static-files";

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
