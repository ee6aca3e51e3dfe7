import { createServer, type Server } from "node:net";

function listenAnywhere(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (typeof address === "object" && address) resolve(address.port);
      else reject(new Error("no port"));
    });
  });
}

/**
 * `count` distinct TCP ports on 127.0.0.1 that nothing listens on right now, none of them in `avoid`. Each is
 * held until all are found: asked one after another, the system can give the same free port twice, and two
 * instances of `npm run cluster` once got the same one (one of them could not start).
 */
export async function findFreePorts(count: number, avoid: readonly number[] = []): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const server = createServer();
      held.push(server);
      const port = await listenAnywhere(server);
      if (!avoid.includes(port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function findFreePort(): Promise<number> {
  const [port] = await findFreePorts(1);
  if (port === undefined) throw new Error("no port");
  return port;
}

/** Whether nothing listens on this TCP port of 127.0.0.1 right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
