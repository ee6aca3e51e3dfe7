import { spawn } from "node:child_process";
import { projectRoot } from "./app-server";

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `command args` from the project root, as an operator would, with only `env` and PATH, HOME. */
export function runCommand(command: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
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

/** Runs `npm run <script> -- args` the same way. */
export function runNpm(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCommand("npm", ["run", "--silent", script, "--", ...args], env);
}
