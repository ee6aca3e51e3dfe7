import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import vnuJar from "vnu-jar";
import { type AppServer, startAppServer } from "#tests/app-server";
import { sitemapPaths } from "../app/content/public-pages";

type VnuMessage = { type: string; subType?: string; url: string; message: string; extract?: string };

/**
 * Tailwind's rules for `@property` and the `@supports` test around their fallback: CSS the checker's validator
 * does not know yet, which browsers do. Everything else counts.
 */
const TAILWIND_PROPERTY_RULES = [
  /Unrecognized at-rule “@property”/,
  /“margin-trim”: Property “margin-trim” doesn't exist/,
];

describe("the public pages' HTML, by the Nu HTML checker", () => {
  let app: AppServer;
  let dir: string;
  beforeAll(async () => {
    app = await startAppServer();
    dir = await mkdtemp(path.join(tmpdir(), "tce-vnu-"));
  });
  afterAll(async () => {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("has no errors on any page of the sitemap, after a visitor's answer, or on the not-found page", async () => {
    const pages = [...sitemapPaths, "/no-such-page"];
    const files = await Promise.all(
      pages.map(async (page, index) => {
        const file = path.join(dir, `${index}-${page.replaceAll("/", "_") || "home"}.html`);
        await writeFile(file, await (await fetch(`${app.url}${page}`)).text());
        return file;
      }),
    );
    // The estimate form's answer without JavaScript: the page again, with its message and the values.
    const answered = await fetch(`${app.url}/lighting`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams({ firstName: "Avery" }),
    });
    const answeredFile = path.join(dir, "answered-lighting.html");
    await writeFile(answeredFile, await answered.text());

    const { stdout } = await promisify(execFile)(
      "java",
      ["-jar", vnuJar, "--format", "json", "--stdout", ...files, answeredFile],
      { maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const messages = (JSON.parse(stdout) as { messages: VnuMessage[] }).messages;
    expect(messages.length).toBeGreaterThan(0);
    const errors = messages
      .filter((message) => message.type === "error")
      .filter((message) => !TAILWIND_PROPERTY_RULES.some((rule) => rule.test(message.message)))
      .map((message) => `${path.basename(message.url)}: ${message.message} ${message.extract ?? ""}`);
    expect(errors).toEqual([]);
  });
});
