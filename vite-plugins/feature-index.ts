import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Plugin } from "vite";

/** Writes app/features/feature-index.generated.server.ts (scripts/feature-index.mjs) before Vite or Vitest reads the app. */
export function featureIndex(projectRoot: string): Plugin {
  return {
    name: "feature-index",
    config() {
      execFileSync(process.execPath, [path.join(projectRoot, "scripts/feature-index.mjs")], { stdio: "inherit" });
    },
  };
}
