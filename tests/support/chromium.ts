import { existsSync } from "node:fs";

/** Debian's Chromium, or CHROMIUM_PATH. Playwright's own browser download is not available here. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

export function chromiumLaunchOptions() {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium was not found at ${executablePath}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return {
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  };
}
