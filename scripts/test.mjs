// `npm test`: every test. Finds (or on Debian as root, installs) Chromium, builds the app, then runs the
// Vitest suites (unit and integration, against a real PostgreSQL) and the Playwright browser tests.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./build-info.mjs";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

function ensureChromium() {
  if (existsSync(chromium)) return;
  const isDebian = existsSync("/etc/debian_version");
  const isRoot = process.getuid?.() === 0;
  if (!process.env.CHROMIUM_PATH && isDebian && isRoot) {
    console.log("test: Chromium is missing; installing Debian's chromium package");
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync(chromium)) return;
  }
  const osName = existsSync("/etc/os-release")
    ? /PRETTY_NAME="?([^"\n]+)/.exec(readFileSync("/etc/os-release", "utf8"))?.[1]
    : process.platform;
  console.error(
    `test: no Chromium at ${chromium} (${osName}). The browser tests need it: install Chromium ` +
      "(Debian/Ubuntu: apt-get install chromium) or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
  process.exit(1);
}

function run(label, command, args) {
  console.log(`\ntest: ${label}`);
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: "inherit", env: process.env });
  return result.status === 0;
}

ensureChromium();
const bin = (name) => path.join(projectRoot, "node_modules/.bin", name);
if (!run("building the app", process.execPath, [path.join(projectRoot, "scripts/build.mjs")])) process.exit(1);
const unit = run("unit and integration tests (Vitest)", bin("vitest"), ["run"]);
const browser = run("browser tests (Playwright, Chromium)", bin("playwright"), ["test"]);
console.log(`\ntest: Vitest ${unit ? "passed" : "FAILED"}, Playwright ${browser ? "passed" : "FAILED"}`);
process.exit(unit && browser ? 0 : 1);
