import { spawn } from "node:child_process";
import { projectRoot } from "./app-server";

export type NpmScriptResult = { code: number | null; stdout: string; stderr: string };

/** Runs `npm run <script> -- args` from the project root, as an operator would, with only `env` set besides PATH and HOME. */
export function runNpmScript(script: string, args: string[], env: Record<string, string>): Promise<NpmScriptResult> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
