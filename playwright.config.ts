import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/support/chromium";
import { makeTestRunDirectory } from "./tests/support/test-run-directory";
import { TEST_SESSION_SECRET } from "./tests/support/test-session-secret";

// The config is evaluated again in every worker; the environment carries the first evaluation's choices.
process.env.E2E_PORT ??= "4319";
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "tce-e2e-"));
makeTestRunDirectory();
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

/*
 * Behaviour that does not depend on the screen runs on one project, not twice: what staff do in the field
 * (offline sending, the service worker, photo uploads on a phone's line, push, a visitor's clock) on the phone;
 * the office's inbox, sign-in and staff accounts on the desktop. The layouts of those screens keep their own
 * cases (phone-*.spec.ts, accessibility.spec.ts, navigation.spec.ts); the phone's axe check of the sign-in page,
 * the dashboard and the staff page is phone-touch-audit.spec.ts's.
 */
const phoneOnly = /(staff-app|checklist-photo-uploads|device-forms|push-notifications|fill-time)\.spec\.ts$/;
const desktopOnly = /(admin-login|inbox-detail|inbox-list|sign-in-locks)\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  globalTeardown: "./tests/support/playwright.global-teardown.ts",
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: { baseURL, launchOptions: chromiumLaunchOptions(), trace: "off" },
  projects: [
    { name: "phone", use: { ...devices["Pixel 7"] }, testIgnore: desktopOnly },
    // The narrowest phone staff carry (360 × 780, touch), for the specs of what staff do with a phone in the hand.
    {
      name: "small-phone",
      use: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 }, screen: { width: 360, height: 780 } },
      testMatch: /phone-[a-z-]+\.spec\.ts$/,
      // The site editor's two-instance cluster runs once, on the phone; its pages at 360 px are in the touch audit.
      testIgnore: /phone-site-editor\.spec\.ts$/,
    },
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
      // The mobile menu exists only on a phone; the checklist is filled in on one; the phone-* specs are a phone's.
      testIgnore: [/mobile-menu|estimate-checklist|phone-[a-z-]+\.spec\.ts$/, phoneOnly],
    },
  ],
  webServer: {
    command: "node build/server-entry/index.js",
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: process.env.E2E_PORT,
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SESSION_SECRET: TEST_SESSION_SECRET,
      // Every browser test posts from 127.0.0.1.
      PUBLIC_FORM_RATE_LIMIT: "10000",
      // As in every test app (tests/support/app-server.ts): no base backup and WAL archive beside the browsers.
      WAL_ARCHIVE: "off",
    },
  },
});
