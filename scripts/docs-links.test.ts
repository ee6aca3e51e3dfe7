import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is a map and docs/ holds the rest (issue 48): every link in them must lead somewhere inside the
 * repository, or to a public web site over https. A moved or renamed document, or a heading reworded, fails here
 * naming the file and the link.
 */

const root = path.resolve(new URL("..", import.meta.url).pathname);
const README_MOST_LINES = 200;

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith(".md") ? [file] : [];
  });
}

function withoutFencedCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The text a reader sees as prose: fenced code blocks and inline code spans hold no links. */
function withoutCode(text: string): string {
  return withoutFencedCode(text).replace(/`+[^`\n]*`+/g, "");
}

function linkTargets(text: string): string[] {
  const prose = withoutCode(text);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  const definitions = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(
    (match) => match[1],
  );
  const autolinks = [...prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((match) => match[1]);
  return [...inline, ...definitions, ...autolinks].filter((target) => target !== undefined);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to "-", repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFencedCode(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const words = (match[1] ?? "").replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = words
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Public sites are fine over https; the local server a set-up step starts is named as a plain address. */
function leavesTheRepository(target: string): boolean {
  if (/^https:\/\//i.test(target)) return false;
  if (/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/i.test(target)) return false;
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/") || target.startsWith("\\");
}

function problemsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const name = path.relative(root, file);
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^mailto:/i.test(target)) continue;
    if (leavesTheRepository(target)) {
      problems.push(`${name}: ${target} leaves the repository`);
      continue;
    }
    if (/^https?:/i.test(target)) continue;
    const [rawPath = "", anchor] = target.split("#", 2);
    const linked = rawPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    const inRepository = path.relative(root, linked);
    if (inRepository.startsWith("..") || path.isAbsolute(inRepository)) {
      problems.push(`${name}: ${target} climbs above the repository's root`);
      continue;
    }
    if (!existsSync(linked)) {
      problems.push(`${name}: ${target} names ${inRepository}, which does not exist`);
      continue;
    }
    if (anchor && linked.endsWith(".md") && !headingAnchors(readFileSync(linked, "utf8")).has(anchor)) {
      problems.push(`${name}: ${target} names #${anchor}, which no heading of ${inRepository} makes`);
    }
  }
  return problems;
}

const documents = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

describe("the README and docs/", () => {
  it("link only to files and headings that exist inside the repository, or to https sites", () => {
    expect(documents.length).toBeGreaterThan(20);
    expect(documents.flatMap(problemsOf)).toEqual([]);
  });

  it("list every document in docs/README.md, the decision records in theirs", () => {
    const linkedFrom = (index: string) =>
      new Set(
        linkTargets(readFileSync(index, "utf8")).map((target) =>
          path.resolve(path.dirname(index), target.split("#")[0] ?? ""),
        ),
      );
    const index = linkedFrom(path.join(root, "docs/README.md"));
    const decisions = linkedFrom(path.join(root, "docs/decisions/README.md"));
    const unlisted = documents
      .filter((file) => !file.endsWith("README.md"))
      .filter((file) => !(path.dirname(file).endsWith("decisions") ? decisions : index).has(file))
      .map((file) => path.relative(root, file));
    expect(unlisted).toEqual([]);
  });

  it(`keep the README a map of at most ${README_MOST_LINES} lines`, () => {
    const lines = readFileSync(path.join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines, `README.md has ${lines} lines`).toBeLessThanOrEqual(README_MOST_LINES);
  });

  it("make GitHub's anchors from headings", () => {
    expect([
      ...headingAnchors(
        "# Continuous protection (point-in-time recovery)\n## 7. Calls made\n## `npm run bench`\n## Calls made\n## Calls made",
      ),
    ]).toEqual([
      "continuous-protection-point-in-time-recovery",
      "7-calls-made",
      "npm-run-bench",
      "calls-made",
      "calls-made-1",
    ]);
  });
});
