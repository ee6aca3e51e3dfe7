// The pages' part of `npm run bench`: each page's JS/CSS/image weight as a phone downloads it (Playwright), then
// Lighthouse 12 in its default mobile mode, three runs a page, against docs/design.md's budgets. The public pages are
// measured signed out; the staff pages signed in, with a session cookie.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "#tests/chromium";
import { startStaffSession } from "#tests/staff-session";
import { marketingPagePaths } from "../app/content/public-pages";
import { staffToolLinks } from "../app/features/quick-links.server";
import { findFreePort } from "../app/services/free-port.server";
import { textTable } from "./bench-table";
import { type LighthouseAudit, type LighthouseReport, loadLighthouse } from "./lighthouse";
import { median } from "./percentile";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
const KB = 1024;
/** What a page must reach; a figure left out is reported, not held to a goal. */
export type PageBudget = {
  /** Script KB: gzipped at node:zlib's default level (docs/design.md's public budget), or as sent (the staff one). */
  js: { kb: number; as: "gzip" | "wire" };
  /** The median of LIGHTHOUSE_RUNS mobile runs. */
  performance: number;
  lowestPerformance?: number;
  /** Accessibility, best practices and SEO, in every run. */
  otherCategories?: number;
  cls?: number;
};
/**
 * docs/design.md's public page budgets: the median of LIGHTHOUSE_RUNS mobile runs at performance 100 and none below
 * lowestPerformance; accessibility, best practices and SEO at 100 in every run; JS <= 50 KB gzip; CLS 0.
 */
export const PAGE_BUDGET = {
  js: { kb: 50, as: "gzip" },
  performance: 100,
  lowestPerformance: 98,
  otherCategories: 100,
  cls: 0,
} satisfies PageBudget;
/** docs/design.md's staff page budget: at most 140 KB of script on the wire, and a median mobile performance of 95. */
export const STAFF_PAGE_BUDGET: PageBudget = { js: { kb: 140, as: "wire" }, performance: 95 };
/** Three by docs/design.md; BENCH_LIGHTHOUSE_RUNS asks for more, when a median of three is within the noise. */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
if (!Number.isInteger(LIGHTHOUSE_RUNS) || LIGHTHOUSE_RUNS < 1)
  throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a whole number of runs, not "${process.env.BENCH_LIGHTHOUSE_RUNS}"`);

/**
 * `jsFiles` and `cssFiles` count the files loaded; the gzip sizes include what is inlined in the HTML too, gzipped
 * apart. `jsWireBytes` is the scripts' bodies as the server sent them (its brotli copies), inlined ones gzipped.
 */
type Weight = {
  jsFiles: number;
  jsGzipBytes: number;
  jsWireBytes: number;
  cssFiles: number;
  cssGzipBytes: number;
  imageBytes: number;
};
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
  fcpMs?: number;
  lcpMs?: number;
  speedIndexMs?: number;
  cls?: number;
  tbtMs?: number;
  failingAudits: FailingAudit[];
};
/**
 * The same page's build/client files served by nginx (`gzip_static`), as they are or with the app's security
 * headers: medians of the runs alternating with the app's.
 */
export type ReferenceRuns = {
  runs: number;
  performance: number | null;
  fcpMs?: number;
  lcpMs?: number;
  speedIndexMs?: number;
  tbtMs?: number;
};
/** One page's row: its weight, and each category's median score over the runs with the lowest beside it. */
export type PageResult = { page: string } & Weight & {
    runs: number;
    scores: Record<Category, number | null>;
    lowestScores: Record<Category, number | null>;
    fcpMs?: number;
    lcpMs?: number;
    speedIndexMs?: number;
    cls?: number;
    tbtMs?: number;
    failingAudits: FailingAudit[];
    overBudget: string[];
    nginx?: ReferenceRuns;
    nginxWithAppHeaders?: ReferenceRuns;
  };

/**
 * Script and stylesheet counts and gzip sizes (node:zlib default level), inlined ones included, and image bytes
 * on the wire.
 */
async function measureWeight(baseUrl: string, pages: readonly string[], cookie?: string): Promise<Map<string, Weight>> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const results = new Map<string, Weight>();
    for (const page of pages) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
        extraHTTPHeaders: cookie ? { cookie } : {},
        // The staff area's worker fetches the tools' pages for offline use: not the page's own weight.
        serviceWorkers: "block",
      });
      const tab = await context.newPage();
      const responses: Promise<void>[] = [];
      const weight: Weight = {
        jsFiles: 0,
        jsGzipBytes: 0,
        jsWireBytes: 0,
        cssFiles: 0,
        cssGzipBytes: 0,
        imageBytes: 0,
      };
      tab.on("response", (response) => {
        const type = response.request().resourceType();
        if (type === "script" || type === "stylesheet") {
          responses.push(
            Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => {
              const gzipped = gzipSync(body).length;
              if (type === "script") {
                weight.jsFiles++;
                weight.jsGzipBytes += gzipped;
                weight.jsWireBytes += sizes.responseBodySize;
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
      const inlined = await tab.evaluate(() => ({
        scripts: Array.from(
          document.querySelectorAll('script:not([src]):not([type="application/ld+json"])'),
          (script) => script.textContent ?? "",
        ),
        styles: Array.from(document.querySelectorAll("style"), (style) => style.textContent ?? ""),
      }));
      for (const code of inlined.scripts) {
        weight.jsGzipBytes += gzipSync(code).length;
        weight.jsWireBytes += gzipSync(code).length;
      }
      for (const css of inlined.styles) weight.cssGzipBytes += gzipSync(css).length;
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
    // Chromium's helper processes may still write to the profile for a moment after it exits.
    await rm(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
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

async function lighthouseReport(url: string, cookie?: string): Promise<LighthouseReport> {
  const lighthouse = await loadLighthouse();
  const browser = await launchDebuggableChromium();
  try {
    const result = await lighthouse(url, {
      port: browser.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      extraHeaders: cookie ? { cookie } : undefined,
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    return result.lhr;
  } finally {
    await browser.stop();
  }
}

async function runLighthouse(url: string, cookie?: string): Promise<Audits> {
  let lhr = await lighthouseReport(url, cookie);
  // Lighthouse's own advice for its flaky trace errors (NO_NAVSTART and the like) is to run it again.
  if (lhr.runtimeError) {
    console.warn(`bench: Lighthouse failed on ${url} (${lhr.runtimeError.code}); retrying once`);
    lhr = await lighthouseReport(url, cookie);
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
    fcpMs: lhr.audits["first-contentful-paint"]?.numericValue,
    lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue,
    speedIndexMs: lhr.audits["speed-index"]?.numericValue,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue,
    tbtMs: lhr.audits["total-blocking-time"]?.numericValue,
    failingAudits: [...failingAudits.values()],
  };
}

function offenders(audit: LighthouseAudit): string[] {
  if (audit.details?.type !== "table") return [];
  return audit.details.items.slice(0, 5).map(({ node, href, text }) => {
    if (typeof node === "object" && node.type === "node" && node.snippet) return node.snippet;
    return JSON.stringify({ text, href });
  });
}

/** The runs of one page as its row: medians, the lowest score of each category, the worst CLS. */
function summarise(runs: Audits[], budget: PageBudget): Omit<PageResult, "page" | keyof Weight | "overBudget"> {
  const scores = {} as Record<Category, number | null>;
  const lowestScores = {} as Record<Category, number | null>;
  for (const category of CATEGORIES) {
    const values = runs.map((run) => run.scores[category]);
    const known = values.filter((value): value is number => value !== null);
    scores[category] = known.length === values.length && known.length > 0 ? median(known) : null;
    lowestScores[category] = known.length === values.length ? Math.min(...known) : null;
  }
  const numbers = (pick: (run: Audits) => number | undefined) =>
    runs.map(pick).filter((value): value is number => value !== undefined);
  const medianOf = (values: number[]) => (values.length > 0 ? median(values) : undefined);
  const clsValues = numbers((run) => run.cls);
  // The failing audits, from any run, of the categories that miss their budget in some run: the ones to fix.
  const failingAudits = new Map<string, FailingAudit>();
  for (const run of runs) {
    for (const audit of run.failingAudits) {
      const lowest = lowestScores[audit.category];
      if ((lowest ?? 0) < lowestAllowed(audit.category, budget))
        failingAudits.set(`${audit.category} ${audit.id}`, audit);
    }
  }
  return {
    runs: runs.length,
    scores,
    lowestScores,
    fcpMs: medianOf(numbers((run) => run.fcpMs)),
    lcpMs: medianOf(numbers((run) => run.lcpMs)),
    speedIndexMs: medianOf(numbers((run) => run.speedIndexMs)),
    cls: clsValues.length === runs.length ? Math.max(...clsValues) : undefined,
    tbtMs: medianOf(numbers((run) => run.tbtMs)),
    failingAudits: [...failingAudits.values()],
  };
}

/** The lowest score a run may have in the category; 0 where the budget holds no run to one. */
function lowestAllowed(category: Category, budget: PageBudget): number {
  return (category === "performance" ? budget.lowestPerformance : budget.otherCategories) ?? 0;
}

function minimumScore(category: Category, budget: PageBudget): number | undefined {
  return category === "performance" ? budget.performance : budget.otherCategories;
}

function overBudget(weight: Weight, summary: ReturnType<typeof summarise>, budget: PageBudget): string[] {
  const misses: string[] = [];
  const jsKb = (budget.js.as === "gzip" ? weight.jsGzipBytes : weight.jsWireBytes) / KB;
  if (jsKb > budget.js.kb) misses.push(`JS ${jsKb.toFixed(1)} KB ${jsText(budget)} > ${budget.js.kb} KB`);
  for (const category of CATEGORIES) {
    const score = summary.scores[category];
    const minimum = minimumScore(category, budget);
    if (minimum !== undefined && (score === null || score < minimum)) {
      misses.push(`${category} median ${score ?? "n/a"} < ${minimum}`);
    }
    const lowest = summary.lowestScores[category];
    if (lowest === null || lowest < lowestAllowed(category, budget)) {
      misses.push(`${category} lowest run ${lowest ?? "n/a"} < ${lowestAllowed(category, budget)}`);
    }
  }
  if (budget.cls !== undefined && (summary.cls === undefined || summary.cls > budget.cls)) {
    misses.push(`CLS ${summary.cls?.toFixed(3) ?? "n/a"} > ${budget.cls}`);
  }
  return misses;
}

const jsText = (budget: PageBudget) => (budget.js.as === "gzip" ? "gzip" : "on the wire");

/** The budget in words, for the tables. */
export function budgetText(budget: PageBudget): string {
  return [
    `JS <= ${budget.js.kb} KB ${jsText(budget)}`,
    `performance median ${budget.performance}` +
      (budget.lowestPerformance === undefined ? "" : `, no run below ${budget.lowestPerformance}`),
    ...(budget.otherCategories === undefined
      ? []
      : [`accessibility, best practices, SEO = ${budget.otherCategories} in every run`]),
    ...(budget.cls === undefined ? [] : [`CLS <= ${budget.cls}`]),
  ].join("; ");
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

/** Prints the pages' table, the budgets, and what each page misses, with the audits to fix. */
export function printPagesBench(results: PageResult[], budget: PageBudget = PAGE_BUDGET) {
  const header = [
    "page",
    "JS files",
    "JS gzip KB",
    "JS wire KB",
    "CSS gzip KB",
    "image KB",
    "perf (median/lowest)",
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
    (r.jsWireBytes / KB).toFixed(1),
    (r.cssGzipBytes / KB).toFixed(1),
    (r.imageBytes / KB).toFixed(1),
    `${number(r.scores.performance)}/${number(r.lowestScores.performance)}`,
    number(r.scores.accessibility),
    number(r.scores["best-practices"]),
    number(r.scores.seo),
    number(r.lcpMs),
    number(r.cls, 3),
    number(r.tbtMs),
  ]);
  console.log(`\n${textTable(header, rows)}`);
  console.log(`\nPage budgets (${LIGHTHOUSE_RUNS} Lighthouse runs each): ${budgetText(budget)}  (KB = ${KB} bytes)`);
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
}

/** nginx serving the same build/client, as it is and (optionally) with the app's security headers added. */
export type NginxReferences = { url: string; withAppHeadersUrl?: string };

type PagesToBench = {
  pages: readonly string[];
  budget: PageBudget /** A `name=value` session cookie. */;
  cookie?: string;
  nginx?: NginxReferences;
};

const loadNow = () => loadavg()[0]?.toFixed(1) ?? "n/a";

/**
 * Measures each page of the app at appUrl: its weight once, then LIGHTHOUSE_RUNS Lighthouse runs; with `nginx`,
 * each beside a run of the same page from nginx (and nginx with the app's headers), in an order that turns round
 * every run (app, nginx, nginx with headers; then nginx with headers, nginx, app: ABBA), so that neither a busy
 * moment of the machine nor going first or last falls on one server more than another.
 */
export async function benchPages(
  appUrl: string,
  { pages, budget, cookie, nginx }: PagesToBench = { pages: marketingPagePaths, budget: PAGE_BUDGET },
): Promise<PageResult[]> {
  warnIfBusy();
  const weights = await measureWeight(appUrl, pages, cookie);
  const results: PageResult[] = [];
  for (const page of pages) {
    const weight = weights.get(page);
    if (!weight) throw new Error(`no weight measured for ${page}`);
    const servers = [
      { name: "app", url: appUrl, cookie, runs: [] as Audits[] },
      ...(nginx ? [{ name: "nginx", url: nginx.url, cookie: undefined, runs: [] as Audits[] }] : []),
      ...(nginx?.withAppHeadersUrl
        ? [{ name: "nginx with the app's headers", url: nginx.withAppHeadersUrl, cookie: undefined, runs: [] }]
        : []),
    ];
    for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
      const order = run % 2 === 1 ? servers : [...servers].reverse();
      console.log(
        `bench: Lighthouse ${page} (run ${run} of ${LIGHTHOUSE_RUNS}: ${order.map(({ name }) => name).join(", ")}; ` +
          `load ${loadNow()})`,
      );
      for (const server of order) server.runs.push(await runLighthouse(new URL(page, server.url).href, server.cookie));
    }
    const [app, plainNginx, nginxWithAppHeaders] = servers.map(({ runs }) => summarise(runs, budget));
    if (!app) throw new Error(`no runs of ${page}`);
    results.push({
      page,
      ...weight,
      ...app,
      overBudget: overBudget(weight, app, budget),
      nginx: plainNginx && referenceRuns(plainNginx),
      nginxWithAppHeaders: nginxWithAppHeaders && referenceRuns(nginxWithAppHeaders),
    });
  }
  console.log(`bench: pages measured; load ${loadNow()}`);
  return results;
}

function referenceRuns(summary: ReturnType<typeof summarise>): ReferenceRuns {
  const { runs, scores, fcpMs, lcpMs, speedIndexMs, tbtMs } = summary;
  return { runs, performance: scores.performance, fcpMs, lcpMs, speedIndexMs, tbtMs };
}

/** The app's Lighthouse performance median may be this many points below nginx's, serving the same files. */
export const NGINX_PERFORMANCE_GOAL = { pointsBelowNginx: 2 } as const;

/**
 * The public pages' Lighthouse medians from the app beside nginx's (same files, runs alternating), and beside
 * nginx's with the app's security headers: what the headers cost shows between the two nginx columns.
 */
export function printAgainstNginx(results: PageResult[]) {
  const compared = results.filter((result) => result.nginx);
  if (compared.length === 0) return;
  const number = (value: number | null | undefined) => (value == null ? "n/a" : value.toFixed(0));
  const header = ["page", "perf", "TBT ms", "FCP ms", "LCP ms", "Speed Index ms"];
  const rows = compared.map((ours) => {
    const columns = [referenceRuns(ours), ours.nginx, ours.nginxWithAppHeaders];
    const each = (pick: (runs: ReferenceRuns) => number | null | undefined) =>
      columns.map((runs) => (runs ? number(pick(runs)) : "n/a")).join(" / ");
    return [
      ours.page,
      each((runs) => runs.performance),
      each((runs) => runs.tbtMs),
      each((runs) => runs.fcpMs),
      each((runs) => runs.lcpMs),
      each((runs) => runs.speedIndexMs),
    ];
  });
  console.log(
    `\nPublic pages: the app / nginx (gzip_static) serving the same build/client / the same nginx with the app's ` +
      `security headers${process.env.BENCH_NGINX_HEADERS ? ` (only ${process.env.BENCH_NGINX_HEADERS})` : ""}; ` +
      `Lighthouse mobile, medians of ${compared[0]?.runs} runs each, in turn ABBA:\n${textTable(header, rows)}`,
  );
}

/** Quick Links, each staff tool and the inbox: the screens staff open on a phone in the field. */
export const staffPagePaths = ["/admin/quick-links", ...staffToolLinks.map((tool) => tool.path), "/admin/inbox"];

/** The staff pages of the app (started from build/ with its data in dataDir), signed in as an admin, who has every tool. */
export async function benchStaffPages(app: { url: string; dataDir: string }): Promise<PageResult[]> {
  const { cookie } = await startStaffSession({ dataDir: app.dataDir, role: "admin", label: "bench-pages" });
  return benchPages(app.url, { pages: staffPagePaths, budget: STAFF_PAGE_BUDGET, cookie });
}
