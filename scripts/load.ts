// A small load generator for the bench: `concurrency` keep-alive connections, each sending its next request as
// soon as the last answer was read. Plain node:http, as cheap per request as the servers it measures, since
// it shares their two cores.
import { Agent, request } from "node:http";
import { percentile } from "./percentile";

export type LoadRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };

export type LoadResult = {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  /** Answers other than the expected status, and requests that got no answer. */
  failures: number;
  statuses: Record<number, number>;
};

function send(agent: Agent, origin: URL, load: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = load.body === undefined ? undefined : Buffer.from(load.body);
    const outgoing = request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: load.method,
        path: load.path,
        headers: body ? { ...load.headers, "content-length": String(body.length) } : load.headers,
      },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Sends `total` requests (the index picks each one) over `concurrency` connections and times each. */
export async function runLoad(options: {
  url: string;
  total: number;
  concurrency: number;
  expectStatus: number;
  request: (index: number) => LoadRequest;
  /** Called just before request `index` is sent. */
  onSend?: (index: number) => void;
}): Promise<LoadResult> {
  const origin = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const connection = async () => {
    while (next < options.total) {
      const index = next++;
      const load = options.request(index);
      options.onSend?.(index);
      const begin = performance.now();
      const status = await send(agent, origin, load).catch(() => 0);
      latencies.push(performance.now() - begin);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== options.expectStatus) failures++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, connection));
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: options.total,
    requestsPerSecond: options.total / elapsedSeconds,
    latencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
    failures,
    statuses,
  };
}
