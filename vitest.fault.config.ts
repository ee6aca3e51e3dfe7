import { defineConfig } from "vitest/config";
import { featureIndex } from "./vite-plugins/feature-index";
import { inlineScript } from "./vite-plugins/inline-script";

/**
 * The fault suite (`npm run test:fault`): the built app as real processes, killed, cut off from its receiver
 * and its database, with a table of what was acknowledged, stored and delivered. One file at a time: the
 * scenarios load the machine on purpose.
 */
export default defineConfig({
  plugins: [featureIndex(new URL(".", import.meta.url).pathname), inlineScript(new URL(".", import.meta.url).pathname)],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["tests/fault/**/*.test.ts"],
    globalSetup: ["tests/support/database.global-setup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
