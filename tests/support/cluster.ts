import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { projectRoot } from "./app-server";

/** What `npm run cluster` prints once nginx answers: nginx's address, the database's, and each instance's. */
export type ClusterReady = {
  url: string;
  databaseUrl: string;
  instances: { index: number; pid: number; url: string }[];
};

/** The SITE_URL the current build was made for: a cluster given it serves the build as it is, without building. */
export async function builtSiteUrl(): Promise<string> {
  const info = JSON.parse(await readFile(path.join(projectRoot, "build/build-info.json"), "utf8")) as {
    siteUrl: string;
  };
  return info.siteUrl;
}

/**
 * `npm run cluster -- 2`, as an operator runs it: two instances, each with its DATA_DIR under
 * `DATA_DIR/cluster/`, behind nginx; resolves with what it printed once nginx answered. Without DATABASE_URL
 * the instances share an embedded PostgreSQL whose data directory is `DATA_DIR/cluster`.
 */
export async function startCluster(env: Record<string, string>) {
  const child = spawn("npm", ["run", "--silent", "cluster", "--", "2"], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output: string[] = [];
  createInterface({ input: child.stderr }).on("line", (line) => output.push(line));
  const ready = await new Promise<ClusterReady>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      output.push(line);
      if (line.startsWith("cluster ready ")) resolve(JSON.parse(line.slice("cluster ready ".length)));
    });
    child.once("exit", (code) => reject(new Error(`the cluster exited with ${code}:\n${output.join("\n")}`)));
  });
  return { child, ready, output };
}

export function stopCluster(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The whole group: npm, the cluster script, nginx and the instances.
  process.kill(-(child.pid as number), "SIGTERM");
  return exited;
}
