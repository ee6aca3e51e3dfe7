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
  },
});
