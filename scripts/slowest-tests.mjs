// `node scripts/slowest-tests.mjs <report.json>...`: prints the ten slowest test cases of a Vitest or Playwright
// JSON report (`vitest run --reporter=json`, `playwright test --reporter=json`), so whoever waits on a run sees
// where its time goes. Several reports of one suite are ranked together.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const shown = 10;

/** A Vitest report's cases: { testResults: [{ name, assertionResults: [{ fullName, duration }] }] }. */
function vitestCases(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      seconds: (test.duration ?? 0) / 1000,
      where: path.relative(process.cwd(), file.name),
      title: test.fullName,
    })),
  );
}

/** A Playwright report's cases: nested suites of specs, each spec run once per project. */
function playwrightCases(report) {
  const cases = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const seconds = test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
        const title = [...titles, spec.title].join(" › ");
        cases.push({ seconds, where: `[${test.projectName}] ${spec.file}:${spec.line}`, title });
      }
    }
    for (const describe of suite.suites ?? []) visit(describe, [...titles, describe.title]);
  };
  for (const suite of report.suites) visit(suite, []);
  return cases;
}

const files = process.argv.slice(2).filter((file) => existsSync(file));
const cases = files.flatMap((file) => {
  const report = JSON.parse(readFileSync(file, "utf8"));
  return report.testResults ? vitestCases(report) : playwrightCases(report);
});
if (cases.length > 0) {
  const total = cases.reduce((sum, test) => sum + test.seconds, 0);
  console.log(`\nThe ${shown} slowest of ${cases.length} cases (${Math.round(total)} s in all, summed over workers):`);
  for (const test of cases.sort((a, b) => b.seconds - a.seconds).slice(0, shown)) {
    console.log(`${test.seconds.toFixed(1).padStart(7)} s  ${test.where}  ${test.title}`);
  }
}
