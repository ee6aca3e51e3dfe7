// The estimate form under load: POSTs as a browser with JavaScript sends them (to /learnmore.data), each with
// its own submission key, against the built app with a loopback webhook receiver. Measures requests per
// second and latency of the POSTs, and how long each request takes from the submit to the receiver.
import { startAppServer } from "../tests/support/app-server";
import { startWebhookReceiver } from "../tests/support/webhook-receiver";
import { percentile } from "./percentile";

const TOTAL_POSTS = 1_000;
const CONCURRENCY = 16;

export type EstimateBenchResult = {
  posts: number;
  concurrency: number;
  requestsPerSecond: number;
  postLatencyMs: { p50: number; p99: number };
  deliveryLatencyMs: { p50: number; p99: number };
  failures: number;
};

function estimateForm(index: number): URLSearchParams {
  return new URLSearchParams({
    firstName: "Bench",
    lastName: `Visitor ${index}`,
    email: `bench${index}@example.com`,
    phone: "(803) 555-0100",
    city: "Sumter",
    projectType: "commercial",
    formOfContact: "Email",
    bestTime: "Morning",
    comments: `bench-${index}`,
    submissionKey: crypto.randomUUID(),
  });
}

export async function benchEstimatePosts(): Promise<EstimateBenchResult> {
  const receiver = await startWebhookReceiver();
  const app = await startAppServer({
    env: { WEBHOOK_ESTIMATE_URL: `${receiver.url}estimate`, PUBLIC_FORM_RATE_LIMIT: "1000000" },
  });
  try {
    const submittedAt = new Map<string, number>();
    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    const started = performance.now();
    const client = async () => {
      while (next < TOTAL_POSTS) {
        const index = next++;
        const begin = performance.now();
        submittedAt.set(`bench-${index}`, Date.now());
        const response = await fetch(`${app.url}/learnmore.data`, { method: "POST", body: estimateForm(index) });
        await response.arrayBuffer();
        if (!response.ok) failures++;
        latencies.push(performance.now() - begin);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const elapsedSeconds = (performance.now() - started) / 1000;

    const received = await receiver.waitForRequests(TOTAL_POSTS - failures, 120_000);
    const deliveryLatencies = received.map((request) => {
      const marker = (JSON.parse(request.body) as { comments: string }).comments;
      return request.receivedAt - (submittedAt.get(marker) ?? request.receivedAt);
    });
    latencies.sort((a, b) => a - b);
    deliveryLatencies.sort((a, b) => a - b);
    return {
      posts: TOTAL_POSTS,
      concurrency: CONCURRENCY,
      requestsPerSecond: TOTAL_POSTS / elapsedSeconds,
      postLatencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
      deliveryLatencyMs: { p50: percentile(deliveryLatencies, 0.5), p99: percentile(deliveryLatencies, 0.99) },
      failures,
    };
  } finally {
    await app.stop();
    await receiver.close();
  }
}

export function printEstimateBench(result: EstimateBenchResult) {
  console.log(
    `\nEstimate POSTs (${result.posts} at concurrency ${result.concurrency}, to /learnmore.data): ` +
      `${result.requestsPerSecond.toFixed(0)} requests/s, latency p50 ${result.postLatencyMs.p50.toFixed(1)} ms, ` +
      `p99 ${result.postLatencyMs.p99.toFixed(1)} ms, ${result.failures} failed`,
  );
  console.log(
    `Submit to webhook receiver: p50 ${result.deliveryLatencyMs.p50.toFixed(0)} ms, ` +
      `p99 ${result.deliveryLatencyMs.p99.toFixed(0)} ms`,
  );
}
