// `npm run bench`: builds if needed, starts the built app, then for each public page measures the JS/CSS/image
// weight a phone downloads and runs Lighthouse 12 in its default mobile mode (scripts/bench-pages.ts); then the estimate
// form's throughput (scripts/bench-estimate.ts) and the staff inbox with 100,000 submissions
// (scripts/bench-inbox.ts), and the estimate checklist with ten twelve-megapixel photos (scripts/bench-checklist.ts).
// Prints tables and the budget check, writes
// build/bench-results.json. Missed budgets are reported, not fatal; crashes exit non-zero.
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAppServer } from "../tests/support/app-server";
import { benchChecklist, printChecklistBench } from "./bench-checklist";
import { benchEstimatePosts, printEstimateBench } from "./bench-estimate";
import { benchInbox, printInboxBench } from "./bench-inbox";
import { benchPages, PAGE_BUDGET, type PageResult, printPagesBench } from "./bench-pages";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";

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

  console.log("bench: estimate form under load");
  const estimate = await benchEstimatePosts();
  console.log("bench: staff inbox with 100,000 submissions");
  const inbox = await benchInbox();
  console.log("bench: estimate checklist with ten twelve-megapixel photos");
  const checklist = await benchChecklist();

  printPagesBench(results);
  printEstimateBench(estimate);
  printInboxBench(inbox);
  printChecklistBench(checklist);
  const durationMs = Date.now() - started;
  const output = path.join(projectRoot, "build/bench-results.json");
  await writeFile(
    output,
    `${JSON.stringify({ date: new Date().toISOString(), durationMs, budget: PAGE_BUDGET, results, estimate, inbox, checklist }, null, 2)}\n`,
  );
  console.log(`\nbench: wrote ${path.relative(projectRoot, output)} in ${(durationMs / 1000).toFixed(0)} s`);
}

try {
  await main();
} catch (error) {
  console.error("bench: failed:", error);
  process.exitCode = 1;
}
