import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { marketingPagePaths } from "../app/content/public-pages";

const clientDir = path.join(projectRoot, "build/client");
const publicPages = [...marketingPagePaths];

function prerenderedHtml(page: string): string {
  return readFileSync(path.join(clientDir, page, "index.html"), "utf8");
}

function inlineStylesheetsOf(html: string): string[] {
  return Array.from(html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g), (match) => match[1] ?? "");
}

/** The whole site's stylesheet, as the careers page (a React page that keeps it) inlines it. */
const siteStylesheet = inlineStylesheetsOf(prerenderedHtml("/apply"))[0] ?? "";

function classNamesOf(html: string): string[] {
  const names = Array.from(html.matchAll(/\sclass="([^"]*)"/g), (match) => (match[1] ?? "").split(/\s+/)).flat();
  return [...new Set(names.filter(Boolean).map((name) => name.replaceAll("&amp;", "&").replaceAll("&#x27;", "'")))];
}

/**
 * Whether the stylesheet has a rule for the class: its selector (escaped as CSS.escape does, for the characters
 * Tailwind uses), not followed by more of a longer class name.
 */
function hasRuleFor(stylesheet: string, className: string): boolean {
  const selector = `.${className.replace(/[^a-zA-Z0-9_-]/g, (character) => `\\${character}`)}`;
  const pattern = selector.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${pattern}(?![\\w\\\\-])`).test(stylesheet);
}

describe("the public pages", () => {
  it.each(publicPages)(
    "%s inlines a smaller stylesheet than the site's, with a rule for every class it uses",
    (page) => {
      const html = prerenderedHtml(page);
      const [stylesheet = "", ...others] = inlineStylesheetsOf(html);
      expect(others).toEqual([]);
      expect(stylesheet.length).toBeLessThan(siteStylesheet.length);
      for (const className of classNamesOf(html)) {
        if (hasRuleFor(siteStylesheet, className)) expect(hasRuleFor(stylesheet, className), className).toBe(true);
      }
    },
  );

  it("leave out of their stylesheet the rules of classes that only the careers page uses", () => {
    const publicStylesheet = inlineStylesheetsOf(prerenderedHtml("/"))[0] ?? "";
    const publicClassNames = new Set(publicPages.flatMap((page) => classNamesOf(prerenderedHtml(page))));
    const careersOnly = classNamesOf(prerenderedHtml("/apply")).filter((name) => !publicClassNames.has(name));
    const styledCareersOnly = careersOnly.filter((name) => hasRuleFor(siteStylesheet, name));
    const leftOut = styledCareersOnly.filter((name) => !hasRuleFor(publicStylesheet, name));
    expect(leftOut).not.toEqual([]);
  });
});
