import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "./build-info.mjs";

/**
 * With BENCH_CPU_PROFILE_DIR=dir, the environment that makes an app process write its CPU profile there when it
 * exits (scripts/cpu-profile-preload.mjs), for finding where the time goes; otherwise nothing.
 */
export function appProfiling(): Record<string, string> {
  const directory = process.env.BENCH_CPU_PROFILE_DIR;
  if (!directory) return {};
  return {
    BENCH_CPU_PROFILE_DIR: path.resolve(directory),
    NODE_OPTIONS: `--import=${pathToFileURL(path.join(projectRoot, "scripts/cpu-profile-preload.mjs")).href}`,
  };
}
