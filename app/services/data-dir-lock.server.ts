import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
import { StartRefusal } from "./start-refusal.server";

export type DataDirLock = { release: () => Promise<void> };

const OWNER_FILE = "app.pid";

/**
 * Holds DATA_DIR for this process's lifetime, so that a second app on the same directory refuses to start
 * instead of taking the first one's PostgreSQL away. The lock is an abstract Unix socket named after the
 * directory's device and inode: binding it is atomic, and the kernel lets it go the moment the process
 * dies, however it dies, so there is no stale lock to guess about. (Node has no flock(); this is the
 * kernel-held lock it does have.) `app.pid` beside it names the holder for the message.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const { dev, ino } = await stat(dataDir);
  const server = createServer();
  // Elsewhere (macOS) a socket file in DATA_DIR: one nobody answers on is left from a dead process.
  const socketPath =
    process.platform === "linux" ? `\0tri-county-electric-data-dir-${dev}-${ino}` : path.join(dataDir, "app.lock");
  try {
    await listenOn(server, socketPath).catch(async (error: NodeJS.ErrnoException) => {
      if (process.platform === "linux" || error.code !== "EADDRINUSE" || (await isAnswering(socketPath))) throw error;
      await rm(socketPath, { force: true });
      await listenOn(server, socketPath);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const holder = (await readFile(path.join(dataDir, OWNER_FILE), "utf8").catch(() => "")).trim();
    throw new StartRefusal(
      `DATA_DIR ${dataDir} is in use by another running app${holder ? ` (pid ${holder})` : ""}: stop it first, or give this one its own DATA_DIR`,
    );
  }
  server.unref();
  await writeFile(path.join(dataDir, OWNER_FILE), `${process.pid}\n`);
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function listenOn(server: Server, socketPath: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: socketPath }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function isAnswering(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The HTTP port is checked before anything else is touched, so a start on a busy port changes nothing. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const server: Server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new StartRefusal(`PORT ${port} on ${host} is already in use: stop what listens there, or set another PORT`);
    }
    throw error;
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
