// `npm run bench`: builds if needed, starts the built app, then for each public page measures the JS/CSS/image
// weight a phone downloads (Playwright) and runs Lighthouse 12 in its default mobile mode; then the estimate
// form's posts against a bare durable-write server (scripts/bench-posts.ts), static files against nginx
// (scripts/bench-static.ts) and the staff inbox with 100,000 submissions
// (scripts/bench-inbox.ts), and the estimate checklist with ten twelve-megapixel photos (scripts/bench-checklist.ts).
// Prints tables, the budget check and one summary table of ours against the references, writes
// build/bench-results.json. Missed budgets are reported, not fatal; crashes exit non-zero.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import lighthouse, { type Result } from "lighthouse";
import { findFreePort } from "../app/server/free-port.server";
import { startAppServer } from "../tests/support/app-server";
import { chromiumLaunchOptions } from "../tests/support/chromium";
import { benchChecklist, printChecklistBench } from "./bench-checklist";
import { benchInbox, printInboxBench } from "./bench-inbox";
import { benchPosts, postsBenchRows } from "./bench-posts";
import { benchStatic, staticBenchRows } from "./bench-static";
import { type BenchRow, printBenchTable } from "./bench-table";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";

const PAGES = ["/", "/learnmore", "/lighting", "/healthcare", "/education", "/commercial"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
const KB = 1024;
const BUDGET = { jsGzipKb: 150, performance: 95, homePerformance: 100, otherCategories: 100, cls: 0.05 };

type Weight = { jsFiles: number; jsGzipBytes: number; cssFiles: number; cssGzipBytes: number; imageBytes: number };
type FailingAudit = {
  category: Category;
  id: string;
  title: string;
  displayValue?: string;
  score: number;
  /** For pass/fail audits: the offending elements (HTML snippets) or links, at most five. */
  offenders: string[];
};
type Audits = {
  scores: Record<Category, number | null>;
  lcpMs?: number;
  cls?: number;
  tbtMs?: number;
  failingAudits: FailingAudit[];
};
type PageResult = { page: string } & Weight & Audits & { overBudget: string[] };

/** Script and stylesheet counts and gzip sizes (node:zlib default level), and image bytes on the wire. */
async function measureWeight(baseUrl: string): Promise<Map<string, Weight>> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const results = new Map<string, Weight>();
    for (const page of PAGES) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      const tab = await context.newPage();
      const responses: Promise<void>[] = [];
      const weight: Weight = { jsFiles: 0, jsGzipBytes: 0, cssFiles: 0, cssGzipBytes: 0, imageBytes: 0 };
      tab.on("response", (response) => {
        const type = response.request().resourceType();
        if (type === "script" || type === "stylesheet") {
          responses.push(
            response.body().then((body) => {
              const gzipped = gzipSync(body).length;
              if (type === "script") {
                weight.jsFiles++;
                weight.jsGzipBytes += gzipped;
              } else {
                weight.cssFiles++;
                weight.cssGzipBytes += gzipped;
              }
            }),
          );
        } else if (type === "image") {
          responses.push(
            response
              .request()
              .sizes()
              .then((sizes) => {
                weight.imageBytes += sizes.responseHeadersSize + sizes.responseBodySize;
              }),
          );
        }
      });
      await tab.goto(new URL(page, baseUrl).href, { waitUntil: "networkidle" });
      await Promise.all(responses);
      await context.close();
      results.set(page, weight);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** Starts Chromium with a DevTools port for Lighthouse; resolves once the port is listening. */
async function launchDebuggableChromium() {
  const { executablePath, args } = chromiumLaunchOptions();
  const port = await findFreePort();
  const profileDir = await mkdtemp(path.join(tmpdir(), "tce-bench-chromium-"));
  const child = spawn(
    executablePath,
    [...args, `--remote-debugging-port=${port}`, `--user-data-dir=${profileDir}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
    await rm(profileDir, { recursive: true, force: true });
  };
  const stderr: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Chromium's DevTools port did not open:\n${stderr.join("\n")}`)),
        30_000,
      );
      createInterface({ input: child.stderr }).on("line", (line) => {
        stderr.push(line);
        if (line.includes("DevTools listening on")) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited before opening its DevTools port:\n${stderr.join("\n")}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

async function lighthouseReport(url: string): Promise<Result> {
  const browser = await launchDebuggableChromium();
  try {
    const result = await lighthouse(url, {
      port: browser.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    return result.lhr;
  } finally {
    await browser.stop();
  }
}

async function runLighthouse(url: string): Promise<Audits> {
  let lhr = await lighthouseReport(url);
  // Lighthouse's own advice for its flaky trace errors (NO_NAVSTART and the like) is to run it again.
  if (lhr.runtimeError) {
    console.warn(`bench: Lighthouse failed on ${url} (${lhr.runtimeError.code}); retrying once`);
    lhr = await lighthouseReport(url);
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);

  const scores = {} as Record<Category, number | null>;
  const failingAudits: FailingAudit[] = [];
  for (const category of CATEGORIES) {
    const { score, auditRefs } = lhr.categories[category] ?? { score: null, auditRefs: [] };
    scores[category] = score === null ? null : Math.round(score * 100);
    for (const { id } of auditRefs) {
      const audit = lhr.audits[id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (!["binary", "numeric", "metricSavings"].includes(audit.scoreDisplayMode)) continue;
      failingAudits.push({
        category,
        id,
        title: audit.title,
        displayValue: audit.displayValue,
        score: audit.score,
        offenders: audit.scoreDisplayMode === "binary" ? offenders(audit) : [],
      });
    }
  }
  return {
    scores,
    lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue,
    tbtMs: lhr.audits["total-blocking-time"]?.numericValue,
    failingAudits,
  };
}

function offenders(audit: Result["audits"][string]): string[] {
  if (audit.details?.type !== "table") return [];
  return audit.details.items.slice(0, 5).map(({ node, href, text }) => {
    if (typeof node === "object" && node.type === "node" && node.snippet) return node.snippet;
    return JSON.stringify({ text, href });
  });
}

function minimumScore(page: string, category: Category): number {
  if (category !== "performance") return BUDGET.otherCategories;
  return page === "/" ? BUDGET.homePerformance : BUDGET.performance;
}

function overBudget(page: string, weight: Weight, audits: Audits): string[] {
  const misses: string[] = [];
  const jsKb = weight.jsGzipBytes / KB;
  if (jsKb > BUDGET.jsGzipKb) misses.push(`JS ${jsKb.toFixed(1)} KB gzip > ${BUDGET.jsGzipKb} KB`);
  for (const category of CATEGORIES) {
    const score = audits.scores[category];
    const minimum = minimumScore(page, category);
    if (score === null || score < minimum) misses.push(`${category} ${score ?? "n/a"} < ${minimum}`);
  }
  if (audits.cls === undefined || audits.cls > BUDGET.cls) {
    misses.push(`CLS ${audits.cls?.toFixed(3) ?? "n/a"} > ${BUDGET.cls}`);
  }
  return misses;
}

/** Lighthouse's simulated metrics scale with the CPU time it observes, so another build or test run skews them. */
function warnIfBusy() {
  const [load = 0] = loadavg();
  if (load > availableParallelism()) {
    console.warn(
      `bench: the machine is busy (load ${load.toFixed(1)} on ${availableParallelism()} cores); scores will be lower`,
    );
  }
}

function printTable(results: PageResult[]) {
  const header = [
    "page",
    "JS files",
    "JS gzip KB",
    "CSS gzip KB",
    "image KB",
    "perf",
    "a11y",
    "best-practices",
    "SEO",
    "LCP ms",
    "CLS",
    "TBT ms",
  ];
  const number = (value: number | null | undefined, digits = 0) => (value == null ? "n/a" : value.toFixed(digits));
  const rows = results.map((r) => [
    r.page,
    String(r.jsFiles),
    (r.jsGzipBytes / KB).toFixed(1),
    (r.cssGzipBytes / KB).toFixed(1),
    (r.imageBytes / KB).toFixed(1),
    number(r.scores.performance),
    number(r.scores.accessibility),
    number(r.scores["best-practices"]),
    number(r.scores.seo),
    number(r.lcpMs),
    number(r.cls, 3),
    number(r.tbtMs),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row));
}

/** Each public page's weight and Lighthouse scores as lines of the summary table, against their budgets. */
function pageRows(results: PageResult[]): BenchRow[] {
  return results.map((result) => ({
    measure: `public page ${result.page}`,
    ours:
      `JS ${(result.jsGzipBytes / KB).toFixed(1)} KB gzip, ` +
      CATEGORIES.map((category) => `${category} ${result.scores[category] ?? "n/a"}`).join(", "),
    reference: "",
    goal: `JS <= ${BUDGET.jsGzipKb} KB, performance >= ${minimumScore(result.page, "performance")}, others 100`,
    met: result.overBudget.length === 0,
  }));
}

async function main() {
  const started = Date.now();
  buildIfNeeded("bench");
  const app = await startAppServer();
  let results: PageResult[];
  try {
    console.log(`bench: app at ${app.url}; measuring page weight`);
    warnIfBusy();
    const weights = await measureWeight(app.url);
    results = [];
    for (const page of PAGES) {
      console.log(`bench: Lighthouse ${page}`);
      const weight = weights.get(page);
      if (!weight) throw new Error(`no weight measured for ${page}`);
      const audits = await runLighthouse(new URL(page, app.url).href);
      // Keep the failing audits of the categories that miss their budget: the ones to fix.
      const failingAudits = audits.failingAudits.filter(
        ({ category }) => (audits.scores[category] ?? 0) < minimumScore(page, category),
      );
      results.push({ page, ...weight, ...audits, failingAudits, overBudget: overBudget(page, weight, audits) });
    }
  } finally {
    await app.stop();
    await rm(app.dataDir, { recursive: true, force: true });
  }

  console.log("bench: estimate posts against a bare durable-write server");
  const posts = await benchPosts();
  console.log("bench: static files against nginx");
  const staticFiles = await benchStatic();
  console.log("bench: staff inbox with 100,000 submissions");
  const inbox = await benchInbox();
  console.log("bench: estimate checklist with ten twelve-megapixel photos");
  const checklist = await benchChecklist();

  printTable(results);
  console.log(
    `\nBudgets: JS <= ${BUDGET.jsGzipKb} KB gzip; performance >= ${BUDGET.performance} (/ must be ${BUDGET.homePerformance}); ` +
      `accessibility, best practices, SEO = ${BUDGET.otherCategories}; CLS <= ${BUDGET.cls}  (KB = ${KB} bytes)`,
  );
  for (const result of results) {
    if (result.overBudget.length === 0) {
      console.log(`  ${result.page}: within budget`);
      continue;
    }
    console.log(`  ${result.page}: over budget: ${result.overBudget.join("; ")}`);
    for (const audit of result.failingAudits) {
      console.log(
        `      [${audit.category}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`,
      );
      for (const offender of audit.offenders) console.log(`          ${offender}`);
    }
  }
  printInboxBench(inbox);
  printChecklistBench(checklist);
  printBenchTable([...postsBenchRows(posts), ...staticBenchRows(staticFiles), ...pageRows(results)]);
  const durationMs = Date.now() - started;
  const output = path.join(projectRoot, "build/bench-results.json");
  await writeFile(
    output,
    `${JSON.stringify({ date: new Date().toISOString(), durationMs, budget: BUDGET, results, posts, staticFiles, inbox, checklist }, null, 2)}\n`,
  );
  console.log(`\nbench: wrote ${path.relative(projectRoot, output)} in ${(durationMs / 1000).toFixed(0)} s`);
}

try {
  await main();
} catch (error) {
  console.error("bench: failed:", error);
  process.exitCode = 1;
}
