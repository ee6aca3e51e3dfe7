// Push notifications of new leads under the estimate posts' load (issue 39): the built app on a PostgreSQL started
// here, the estimate webhook to a loopback receiver, and staff devices subscribed on a loopback push service that
// checks and decrypts each push (tests/support/push-service.ts). The posts' rate is taken with no device subscribed,
// then with DEVICES subscribed, in one run; each post's submit-to-push time is taken by the push service.
// Run alone: npx tsx scripts/bench-push.ts (after npm run build).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import pino from "pino";
import { startAppServer } from "#tests/app-server";
import { type PushService, startPushService } from "#tests/push-service";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { estimatePost } from "./bench-posts";
import { type BenchRow, ms, perSecond, printBenchTable } from "./bench-table";
import { buildIfNeeded } from "./build-info.mjs";
import { type LoadResult, runLoad } from "./load";
import { percentile } from "./percentile";

const POSTS = 2_000;
const WARM_UP_POSTS = 200;
const CONCURRENCY = 16;
/** An office's phones and a laptop or two. */
const DEVICES = 3;

export type PushBenchResult = {
  withoutDevices: LoadResult;
  withDevices: LoadResult;
  devices: number;
  submitToPushMs: { p50: number; p99: number; received: number; expected: number };
  refused: number;
};

/** An estimate post named by its marker, which the push's title shows. */
const leadPost = (marker: string) => estimatePost(marker, undefined, marker);

async function leadLoad(url: string, run: string, sentAt?: Map<string, number>) {
  await runLoad({
    url,
    total: WARM_UP_POSTS,
    concurrency: CONCURRENCY,
    expectStatus: 200,
    request: (index) => leadPost(`${run}warm${index}`),
  });
  return runLoad({
    url,
    total: POSTS,
    concurrency: CONCURRENCY,
    expectStatus: 200,
    request: (index) => leadPost(`${run}${index}`),
    onSend: (index) => sentAt?.set(`${run}${index}`, Date.now()),
  });
}

/** Staff devices that hear of estimate requests, stored as the settings page stores them. */
async function subscribeDevices(databaseUrl: string, pushService: PushService) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO staff_users (username, display_name, password_hash, role)
       VALUES ('bench-admin', 'Bench Admin', 'not-a-hash', 'admin') RETURNING id`,
    );
    for (let device = 1; device <= DEVICES; device++) {
      const subscription = await pushService.newSubscription();
      await client.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, device_name, form_types)
         VALUES ($1, $2, $3, $4, $5, '{estimate}')`,
        [rows[0]?.id, subscription.endpoint, subscription.p256dh, subscription.auth, `Bench device ${device}`],
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * Submit to push received, for every device's push of each measured post: once every push of the run (its warm-up
 * too) was taken in, or a minute passed, the push service checks and decrypts them all.
 */
async function submitToPush(pushService: PushService, sentAt: Map<string, number>) {
  const expected = sentAt.size * DEVICES;
  const allOfTheRun = (WARM_UP_POSTS + sentAt.size) * DEVICES;
  const deadline = Date.now() + 60_000;
  while (pushService.accepted() < allOfTheRun && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await pushService.checkTakenIn();
  const latencies: number[] = [];
  for (const push of pushService.received) {
    const marker = /^New estimate request: (\S+) /.exec(String(push.message.title))?.[1] ?? "";
    const sent = sentAt.get(marker);
    if (sent !== undefined) latencies.push(push.receivedAt - sent);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), received: latencies.length, expected };
}

export async function benchPush(): Promise<PushBenchResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "tce-bench-push-"));
  const postgres = await startEmbeddedPostgres({ dataDir, logger: pino({ level: "warn" }) });
  const receiver = await startWebhookReceiver();
  // Pushes are checked after the load: the stand-in's cryptography is not the app's work (push-service.ts).
  const pushService = await startPushService({ checkLater: true });
  const app = await startAppServer({
    env: {
      DATABASE_URL: postgres.url,
      WEBHOOK_ESTIMATE_URL: `${receiver.url}estimate`,
      PUBLIC_FORM_RATE_LIMIT: "1000000",
      PUSH_SERVICE_ALLOWED_HOSTS: pushService.host,
      LOG_LEVEL: "info",
    },
  });
  try {
    const withoutDevices = await leadLoad(app.url, "B");
    await subscribeDevices(postgres.url, pushService);
    const sentAt = new Map<string, number>();
    const withDevices = await leadLoad(app.url, "P", sentAt);
    // The warm-up's pushes are not measured.
    const measured = await submitToPush(pushService, sentAt);
    return {
      withoutDevices,
      withDevices,
      devices: DEVICES,
      submitToPushMs: measured,
      refused: pushService.refused.length,
    };
  } finally {
    await app.stop();
    await Promise.all([receiver.close(), pushService.close()]);
    await postgres.stop();
    await rm(app.dataDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function pushBenchRows(result: PushBenchResult): BenchRow[] {
  const { withoutDevices, withDevices, submitToPushMs: push } = result;
  const ratio = withDevices.requestsPerSecond / withoutDevices.requestsPerSecond;
  return [
    {
      measure: `estimate POSTs with ${result.devices} devices subscribed`,
      ours: `${perSecond(withDevices.requestsPerSecond)}, p99 ${ms(withDevices.latencyMs.p99)}, ${withDevices.failures} failed`,
      reference: `${perSecond(withoutDevices.requestsPerSecond)}, p99 ${ms(withoutDevices.latencyMs.p99)} (none subscribed)`,
      ratio,
      goal: "not lower (>= 0.9 on this shared machine), 0 failed",
      met: ratio >= 0.9 && withDevices.failures === 0,
    },
    {
      measure: "submit to push received, during the POST load",
      ours: `p50 ${ms(push.p50)}, p99 ${ms(push.p99)} (${push.received} of ${push.expected}, ${result.refused} refused)`,
      reference: "",
      goal: "p99 < 10 s, every push checked and decrypted",
      met: push.received === push.expected && push.p99 < 10_000 && result.refused === 0,
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildIfNeeded("bench");
  printBenchTable(pushBenchRows(await benchPush()));
}
