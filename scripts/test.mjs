// `npm test`: every test. Finds (or on Debian as root, installs) Chromium, Java, poppler-utils, Prometheus, jemalloc, rclone and nginx, builds the app, then runs the
// Vitest suites (unit and integration, against a real PostgreSQL) and the Playwright browser tests.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./build-info.mjs";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** What the tests run besides Node, and the Debian package that brings each. */
const prerequisites = [
  { name: "Chromium", binary: chromium, debianPackage: "chromium", for: "the browser tests" },
  { name: "Java", binary: "/usr/bin/java", debianPackage: "default-jre-headless", for: "the Nu HTML checker" },
  { name: "pdfimages", binary: "/usr/bin/pdfimages", debianPackage: "poppler-utils", for: "the checklist PDF test" },
  { name: "Prometheus", binary: "/usr/bin/prometheus", debianPackage: "prometheus", for: "the /metrics test" },
  {
    name: "jemalloc",
    binary: `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libjemalloc.so.2`,
    debianPackage: "libjemalloc2",
    for: "the app's memory settings and their test",
  },
  {
    name: "rclone",
    binary: "/usr/bin/rclone",
    debianPackage: "rclone",
    for: "the backup copy tests and restore drill",
  },
  {
    name: "nginx",
    binary: "/usr/sbin/nginx",
    debianPackage: "nginx",
    for: "the request caps behind nginx and the site editor's two instances",
  },
];

/** Installs what is missing on Debian as root; anywhere else, stops and says what to install. Never skips. */
function ensurePrerequisites() {
  const missing = prerequisites.filter((tool) => !existsSync(tool.binary));
  if (missing.length === 0) return;
  const isDebian = existsSync("/etc/debian_version");
  const isRoot = process.getuid?.() === 0;
  if (!process.env.CHROMIUM_PATH && isDebian && isRoot) {
    const packages = missing.map((tool) => tool.debianPackage);
    console.log(`test: installing Debian's ${packages.join(", ")}`);
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (missing.every((tool) => existsSync(tool.binary))) return;
  }
  const osName = existsSync("/etc/os-release")
    ? /PRETTY_NAME="?([^"\n]+)/.exec(readFileSync("/etc/os-release", "utf8"))?.[1]
    : process.platform;
  for (const tool of missing.filter((candidate) => !existsSync(candidate.binary))) {
    console.error(
      `test: no ${tool.name} at ${tool.binary} (${osName}); ${tool.for} need it. Install it ` +
        `(Debian/Ubuntu: apt-get install ${tool.debianPackage})` +
        (tool.name === "Chromium" ? " or point CHROMIUM_PATH at a Chromium or Chrome binary." : "."),
    );
  }
  process.exit(1);
}

function run(label, command, args, env = {}) {
  console.log(`\ntest: ${label}`);
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

/** Each suite also writes a JSON report, from which its ten slowest cases are printed when it ends. */
const reports = mkdtempSync(path.join(tmpdir(), "tce-test-reports-"));
const printSlowest = (report) => run("the slowest cases", process.execPath, ["scripts/slowest-tests.mjs", report]);

ensurePrerequisites();
const bin = (name) => path.join(projectRoot, "node_modules/.bin", name);
if (!run("building the app", process.execPath, [path.join(projectRoot, "scripts/build.mjs")])) process.exit(1);
const vitestReport = path.join(reports, "vitest.json");
const unit = run("unit and integration tests (Vitest)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
printSlowest(vitestReport);
const playwrightReport = path.join(reports, "playwright.json");
const browser = run("browser tests (Playwright, Chromium)", bin("playwright"), ["test", "--reporter=list,json"], {
  PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport,
});
printSlowest(playwrightReport);
console.log(`\ntest: Vitest ${unit ? "passed" : "FAILED"}, Playwright ${browser ? "passed" : "FAILED"}`);
process.exit(unit && browser ? 0 : 1);
