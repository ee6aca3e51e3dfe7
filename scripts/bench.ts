// `npm run bench`: builds if needed, starts the built app, then for each public page measures the JS/CSS/image
// weight a phone downloads and runs Lighthouse 12 in its default mobile mode, three times (scripts/bench-pages.ts);
// then the estimate form's posts against a bare durable-write server (scripts/bench-posts.ts), static files
// against nginx (scripts/bench-static.ts), the staff inbox (scripts/bench-inbox.ts) and the estimate checklist
// with ten twelve-megapixel photos (scripts/bench-checklist.ts). Prints each part's tables, then one summary
// table of ours against the references and the goals, and writes build/bench-results.json. Missed goals are
// reported, not fatal; crashes exit non-zero. `npm run bench -- checklist` runs the checklist part alone.
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAppServer } from "#tests/app-server";
import { benchChecklist, checklistBenchRows, printChecklistBench } from "./bench-checklist";
import { benchInboxSizes, printInboxBench, printInboxGrowth } from "./bench-inbox";
import { benchPages, PAGE_BUDGET, type PageResult, printPagesBench } from "./bench-pages";
import { benchPosts, postsBenchRows } from "./bench-posts";
import { benchStatic, staticBenchRows } from "./bench-static";
import { type BenchRow, printBenchTable } from "./bench-table";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";

const KB = 1024;

/** One summary row per public page: its weight and median scores against DESIGN.md's budgets. */
function pageRows(results: PageResult[]): BenchRow[] {
  return results.map((result) => ({
    measure: `public page ${result.page}`,
    ours:
      `JS ${(result.jsGzipBytes / KB).toFixed(1)} KB gzip, ` +
      Object.entries(result.scores)
        .map(([category, score]) => `${category} ${score ?? "n/a"}`)
        .join(", "),
    reference: "",
    goal: `JS <= ${PAGE_BUDGET.jsGzipKb} KB, performance ${PAGE_BUDGET.performance} (median of ${result.runs}), others ${PAGE_BUDGET.otherCategories}`,
    met: result.overBudget.length === 0,
  }));
}

async function writeResults(started: number, results: Record<string, unknown>) {
  const durationMs = Date.now() - started;
  const output = path.join(projectRoot, "build/bench-results.json");
  await writeFile(output, `${JSON.stringify({ date: new Date().toISOString(), durationMs, ...results }, null, 2)}\n`);
  console.log(`\nbench: wrote ${path.relative(projectRoot, output)} in ${(durationMs / 1000).toFixed(0)} s`);
}

async function checklistOnly() {
  const started = Date.now();
  buildIfNeeded("bench");
  console.log("bench: estimate checklist with ten twelve-megapixel photos");
  const checklist = await benchChecklist();
  printChecklistBench(checklist);
  printBenchTable(checklistBenchRows(checklist));
  await writeResults(started, { checklist });
}

async function main() {
  const started = Date.now();
  buildIfNeeded("bench");
  const app = await startAppServer();
  let results: PageResult[];
  try {
    console.log(`bench: app at ${app.url}; measuring the public pages`);
    results = await benchPages(app.url);
  } finally {
    await app.stop();
    await rm(app.dataDir, { recursive: true, force: true });
  }

  console.log("bench: estimate posts against a bare durable-write server");
  const posts = await benchPosts();
  console.log("bench: static files against nginx");
  const staticFiles = await benchStatic();
  const inbox = await benchInboxSizes();
  console.log("bench: estimate checklist with ten twelve-megapixel photos");
  const checklist = await benchChecklist();

  printPagesBench(results);
  for (const size of inbox) printInboxBench(size);
  printInboxGrowth(inbox);
  printChecklistBench(checklist);
  printBenchTable([
    ...postsBenchRows(posts),
    ...staticBenchRows(staticFiles),
    ...pageRows(results),
    ...checklistBenchRows(checklist),
  ]);
  await writeResults(started, { budget: PAGE_BUDGET, results, posts, staticFiles, inbox, checklist });
}

const parts = process.argv.slice(2);
try {
  if (parts.length === 0) await main();
  else if (parts.join(" ") === "checklist") await checklistOnly();
  else throw new Error(`unknown part ${parts.join(" ")}: run all, or \`npm run bench -- checklist\``);
} catch (error) {
  console.error("bench: failed:", error);
  process.exitCode = 1;
}
