import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export type OffMachinePlace = {
  /** The folder the WebDAV server serves: what reached the second place. */
  servedDir: string;
  /** An rclone config file (for RCLONE_CONFIG) with the remote `offsite` on this server, its password obscured. */
  configFile: string;
  /** BACKUP_COPY_TO: a folder of the remote. */
  copyTo: string;
  /** The password the server asks for, to check it is in no log. */
  password: string;
  /** The environment that makes a command copy to it. */
  env: Record<string, string>;
  /** Stops the server (the place is out of reach) or starts it again on the same port. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops the server and deletes its folder and config. */
  close: () => Promise<void>;
};

/**
 * A second place for backups, as a separate process on loopback: `rclone serve webdav` over a temporary folder,
 * behind a user and password, with an rclone config pointing at it, as an operator's would at a real one.
 */
export async function startOffMachinePlace(): Promise<OffMachinePlace> {
  const root = await mkdtemp(path.join(tmpdir(), "tce-offsite-"));
  const servedDir = path.join(root, "served");
  await mkdir(servedDir);
  const password = `pw-${crypto.randomUUID()}`;
  let child: ChildProcess | undefined;
  let address = "127.0.0.1:0";

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn(
        "rclone",
        ["serve", "webdav", servedDir, "--addr", address, "--user", "backups", "--pass", password],
        { stdio: ["ignore", "ignore", "pipe"], env: { PATH: process.env.PATH, RCLONE_CONFIG: "/dev/null" } },
      );
      child = server;
      let said = "";
      server.stderr.on("data", (chunk: Buffer) => {
        said += chunk.toString("utf8");
        const url = /WebDav Server started on http:\/\/([\d.:]+)\//.exec(said)?.[1];
        if (url) {
          address = url;
          resolve();
        }
      });
      server.on("exit", (code) => reject(new Error(`rclone serve webdav exited with ${code}: ${said}`)));
    });
  await start();

  const configFile = path.join(root, "rclone.conf");
  const obscured = execFileSync("rclone", ["obscure", password], { encoding: "utf8" }).trim();
  await writeFile(
    configFile,
    `[offsite]\ntype = webdav\nurl = http://${address}/\nvendor = other\nuser = backups\npass = ${obscured}\n`,
    { mode: 0o600 },
  );
  const copyTo = "offsite:tce-backups";
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.removeAllListeners("exit");
      running.once("exit", resolve);
      running.kill("SIGTERM");
    });
  };
  return {
    servedDir,
    configFile,
    copyTo,
    password,
    env: { RCLONE_CONFIG: configFile, BACKUP_COPY_TO: copyTo },
    start,
    stop,
    close: async () => {
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
