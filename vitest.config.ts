import { defineConfig } from "vitest/config";
import { featureIndex } from "./vite-plugins/feature-index";
import { inlineScript } from "./vite-plugins/inline-script";

export default defineConfig({
  plugins: [featureIndex(new URL(".", import.meta.url).pathname), inlineScript(new URL(".", import.meta.url).pathname)],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/database.global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The default of 1 s is shorter than a built page takes to hydrate on a loaded 2-core machine, which failed CI
    // once (new-form-folder.test.ts's draft); the tests' own waits are 15-30 s.
    expect: { poll: { timeout: 15_000 } },
  },
});
