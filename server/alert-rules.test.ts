import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";

const rulesDir = path.join(projectRoot, "deploy/prometheus");

/** promtool's exit code and everything it printed. */
async function promtool(...args: string[]) {
  const result = await promisify(execFile)("promtool", args, { cwd: rulesDir }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  return result;
}

it("deploy/prometheus/alerts.yml is valid Prometheus rules", async () => {
  const check = await promtool("check", "rules", "alerts.yml");
  expect(check.output).toContain("SUCCESS: 11 rules found");
  expect(check.code).toBe(0);
});

it("each alert stays quiet, then fires, as alerts.test.yml expects", async () => {
  const test = await promtool("test", "rules", "alerts.test.yml");
  expect(test.output).toContain("SUCCESS");
  expect(test.code).toBe(0);
});
