// `npm run bench`: builds if needed, starts the built app, then for each public page, and signed in for each staff
// page, measures the JS/CSS/image weight a phone downloads and runs Lighthouse 12 in its default mobile mode, three
// times (scripts/bench-pages.ts); then the estimate form's posts against a bare durable-write server (scripts/bench-posts.ts), static files
// against nginx (scripts/bench-static.ts), the staff inbox (scripts/bench-inbox.ts) and the estimate checklist
// with ten twelve-megapixel photos (scripts/bench-checklist.ts). Prints each part's tables, then one summary
// table of ours against the references and the goals, and writes build/bench-results.json. Missed goals are
// reported, not fatal; crashes exit non-zero. `npm run bench -- pages` measures the pages only, `-- public-pages`
// the public ones beside nginx only, `-- staff-pages` the staff pages only, `-- checklist` the checklist only,
// `-- fresh-clone` the set-up of a fresh clone only (scripts/bench-fresh-clone.ts), which the whole run ends with,
// `-- posts` the estimate posts only, `-- public-pages --after-edit` the public pages and the static files before
// and after an edit of the site is published (scripts/bench-site-edit.ts). The post ratio is shown beside the last recorded one
// (docs/bench/last-posts.json); `--record` (with the whole run or `-- posts`) makes this run's the last recorded.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAppServer } from "#tests/app-server";
import { marketingPagePaths } from "../app/content/public-pages";
import { benchChecklist, checklistBenchRows, printChecklistBench } from "./bench-checklist";
import { benchFreshClone, freshCloneBenchRows } from "./bench-fresh-clone";
import { benchInboxSizes, printInboxBench, printInboxGrowth } from "./bench-inbox";
import {
  benchPages,
  benchStaffPages,
  budgetText,
  NGINX_PERFORMANCE_GOAL,
  PAGE_BUDGET,
  type PageBudget,
  type PageResult,
  printAgainstNginx,
  printPagesBench,
  STAFF_PAGE_BUDGET,
} from "./bench-pages";
import {
  benchPosts,
  lastRecordedPosts,
  type PostsBenchResult,
  postsAgainstLastRecorded,
  postsBenchRows,
  recordPosts,
} from "./bench-posts";
import { benchPush, pushBenchRows } from "./bench-push";
import { aroundEditRows, printAroundEdit, publishBenchEdit } from "./bench-site-edit";
import { benchStatic, startStaticNginx, staticBenchRows } from "./bench-static";
import { type BenchRow, printBenchTable } from "./bench-table";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";

const KB = 1024;

/** One summary row per page: its weight, median scores and largest paint against docs/design.md's budgets. */
function pageRows(kind: string, results: PageResult[], budget: PageBudget): BenchRow[] {
  return results.map((result) => ({
    measure: `${kind} page ${result.page}`,
    ours:
      `JS ${(result.jsGzipBytes / KB).toFixed(1)} KB gzip, ${(result.jsWireBytes / KB).toFixed(1)} KB on the wire, ` +
      Object.entries(result.scores)
        .map(([category, score]) => `${category} ${score ?? "n/a"}`)
        .join(", ") +
      `, LCP ${result.lcpMs === undefined ? "n/a" : `${(result.lcpMs / 1000).toFixed(1)} s`}`,
    reference: "",
    goal: `${budgetText(budget)} (median of ${result.runs})`,
    met: result.overBudget.length === 0,
  }));
}

type PagesPart = "pages" | "public-pages" | "staff-pages";

/** Each public page's Lighthouse performance from the app against nginx serving the same files. */
function againstNginxRows(results: PageResult[]): BenchRow[] {
  return results.flatMap(({ page, scores, nginx }) => {
    if (!nginx) return [];
    const ours = scores.performance;
    const theirs = nginx.performance;
    const ratio = ours !== null && theirs ? ours / theirs : undefined;
    const { pointsBelowNginx } = NGINX_PERFORMANCE_GOAL;
    return [
      {
        measure: `public page ${page}: Lighthouse performance, app against nginx`,
        ours: `${ours ?? "n/a"}`,
        reference: `nginx gzip_static, same files: ${theirs ?? "n/a"}`,
        ratio,
        goal: `>= nginx's - ${pointsBelowNginx} (median of ${nginx.runs}, ABBA)`,
        met: ours !== null && theirs !== null && ours >= theirs - pointsBelowNginx,
      },
    ];
  });
}

/**
 * The public pages (unless only the staff ones are asked for), beside nginx's, then the staff pages signed in.
 * `afterEdit` (public pages only): the public pages and the static files against nginx, then the same after an
 * edit is published (scripts/bench-site-edit.ts).
 */
async function benchAllPages(part: PagesPart, afterEdit = false) {
  const app = await startAppServer();
  const nginx = part === "staff-pages" ? undefined : await startStaticNginx();
  const nginxWithAppHeaders = nginx && (await startStaticNginx({ withAppHeaders: true }));
  const measurePublicPages = () =>
    part === "staff-pages"
      ? Promise.resolve([])
      : benchPages(app.url, {
          pages: marketingPagePaths,
          budget: PAGE_BUDGET,
          nginx: nginx && { url: nginx.url, withAppHeadersUrl: nginxWithAppHeaders?.url },
        });
  try {
    console.log(`bench: app at ${app.url}; measuring the pages${nginx ? `, the public ones beside nginx` : ""}`);
    const publicPages = await measurePublicPages();
    if (afterEdit) {
      console.log("bench: static files against nginx, before an edit");
      const before = { publicPages, staticFiles: await benchStatic(app) };
      const edit = await publishBenchEdit(app);
      console.log("bench: the public pages and the static files again, after the edit");
      const after = { publicPages: await measurePublicPages(), staticFiles: await benchStatic(app) };
      return { publicPages, staffPages: [], aroundEdit: { before, after, edit } };
    }
    const staffPages = part === "public-pages" ? [] : await benchStaffPages(app);
    return { publicPages, staffPages };
  } finally {
    await nginxWithAppHeaders?.stop();
    await nginx?.stop();
    await app.stop();
    await rm(app.dataDir, { recursive: true, force: true });
  }
}

function printAllPages({ publicPages, staffPages, aroundEdit }: Awaited<ReturnType<typeof benchAllPages>>) {
  if (publicPages.length > 0) printPagesBench(publicPages, PAGE_BUDGET);
  printAgainstNginx(publicPages);
  if (staffPages.length > 0) printPagesBench(staffPages, STAFF_PAGE_BUDGET);
  if (aroundEdit) printAroundEdit(aroundEdit);
  return [
    ...(aroundEdit ? aroundEditRows(aroundEdit) : []),
    ...pageRows("public", publicPages, PAGE_BUDGET),
    ...againstNginxRows(publicPages),
    ...pageRows("staff", staffPages, STAFF_PAGE_BUDGET),
  ];
}

async function writeResults(started: number, results: Record<string, unknown>) {
  const durationMs = Date.now() - started;
  const output = path.join(projectRoot, "build/bench-results.json");
  await mkdir(path.dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify({ date: new Date().toISOString(), durationMs, ...results }, null, 2)}\n`);
  console.log(`\nbench: wrote ${path.relative(projectRoot, output)} in ${(durationMs / 1000).toFixed(0)} s`);
}

/** The posts' rows, the ratio beside the last recorded one among them; with `--record`, this run's is kept. */
async function postsRows(posts: PostsBenchResult, record: boolean): Promise<BenchRow[]> {
  const rows = [...postsBenchRows(posts), postsAgainstLastRecorded(posts, await lastRecordedPosts())];
  if (record) await recordPosts(posts);
  return rows;
}

async function main(part: string | undefined, { record, afterEdit }: { record: boolean; afterEdit: boolean }) {
  const started = Date.now();
  // A clone of its own, which builds itself: this checkout's build is not needed.
  if (part === "fresh-clone") {
    const freshClone = await benchFreshClone();
    printBenchTable(freshCloneBenchRows(freshClone));
    await writeResults(started, { freshClone });
    return;
  }
  buildIfNeeded("bench");
  if (afterEdit && part !== "public-pages") throw new Error("bench: --after-edit goes with public-pages");
  if (part === "pages" || part === "public-pages" || part === "staff-pages") {
    const pages = await benchAllPages(part, afterEdit);
    printBenchTable(printAllPages(pages));
    if (pages.aroundEdit) await writeResults(started, { aroundEdit: pages.aroundEdit });
    return;
  }
  if (part === "checklist") {
    console.log("bench: estimate checklist with ten twelve-megapixel photos");
    const checklist = await benchChecklist();
    printChecklistBench(checklist);
    printBenchTable(checklistBenchRows(checklist));
    await writeResults(started, { checklist });
    return;
  }
  if (part === "posts") {
    console.log("bench: estimate posts against a bare durable-write server");
    const posts = await benchPosts();
    console.log("PostgreSQL's backends during the first one-address run (% of samples):", posts.waits);
    printBenchTable(await postsRows(posts, record));
    await writeResults(started, { posts });
    return;
  }
  if (part !== undefined)
    throw new Error(
      `unknown part "${part}": give pages, public-pages, staff-pages, checklist, fresh-clone, posts or nothing`,
    );
  const pages = await benchAllPages("pages");

  console.log("bench: estimate posts against a bare durable-write server");
  const posts = await benchPosts();
  console.log("bench: push notifications of new leads under the estimate posts' load");
  const push = await benchPush();
  console.log("bench: static files against nginx");
  const staticFiles = await benchStatic();
  const inbox = await benchInboxSizes();
  console.log("bench: estimate checklist with ten twelve-megapixel photos");
  const checklist = await benchChecklist();
  const freshClone = await benchFreshClone();

  const pageBenchRows = printAllPages(pages);
  for (const size of inbox) printInboxBench(size);
  printInboxGrowth(inbox);
  printChecklistBench(checklist);
  printBenchTable([
    ...(await postsRows(posts, record)),
    ...pushBenchRows(push),
    ...staticBenchRows(staticFiles),
    ...pageBenchRows,
    ...checklistBenchRows(checklist),
    ...freshCloneBenchRows(freshClone),
  ]);
  await writeResults(started, {
    budget: PAGE_BUDGET,
    results: pages.publicPages,
    staffBudget: STAFF_PAGE_BUDGET,
    staffPages: pages.staffPages,
    posts,
    push,
    staticFiles,
    inbox,
    checklist,
    freshClone,
  });
}

try {
  const args = process.argv.slice(2);
  await main(
    args.find((arg) => !arg.startsWith("--")),
    { record: args.includes("--record"), afterEdit: args.includes("--after-edit") },
  );
} catch (error) {
  console.error("bench: failed:", error);
  process.exitCode = 1;
}
