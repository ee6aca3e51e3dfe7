// Estimate form posts under load (issue 16 goals 1 and 4): the built app against a bare node:http server doing the
// same durable write (scripts/bare-durable-write-server.mjs), both on one PostgreSQL started here, in one run.
// The app is measured with every post from one address, then from 16 addresses behind a trusted proxy, then with
// one address flooding past the limit; each post's submit-to-webhook time is taken by a loopback receiver.
// The one-address ratio is shown beside the last one recorded in docs/bench/last-posts.json, which only
// `--record` rewrites. Run alone: npm run bench -- posts [--record] (or npx tsx scripts/bench-posts.ts).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import pg from "pg";
import pino from "pino";
import { startAppServer } from "#tests/app-server";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { startEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { type BenchRow, ms, perSecond, printBenchTable } from "./bench-table";
import { buildIfNeeded, projectRoot } from "./build-info.mjs";
import { appProfiling } from "./cpu-profile";
import { type LoadRequest, type LoadResult, runLoad } from "./load";
import { median, percentile } from "./percentile";

const POSTS = 3_000;
const WARM_UP_POSTS = 300;
const CONCURRENCY = 16;
const ADDRESSES = Array.from({ length: 16 }, (_, index) => `203.0.113.${index + 1}`);

/** What PostgreSQL's backends of the app's database were doing, sampled through the run: share by state. */
export type WaitShares = Record<string, number>;

/**
 * Samples pg_stat_activity every 50 ms while `work` runs (more often, the sampling itself took a share of the
 * CPU the app was measured on): for each backend of the database, its state and wait event
 * (ClientRead: idle in a transaction, waiting for the app; Lock: queued on a row; IO/WAL: the disk).
 */
async function sampleWaits<T>(databaseUrl: string, work: () => Promise<T>): Promise<{ result: T; waits: WaitShares }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query<{ state: string; wait: string | null }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      for (const { state, wait } of rows) {
        const key =
          state === "active" ? `active${wait ? ` (${wait})` : " (on CPU)"}` : `${state}${wait ? ` (${wait})` : ""}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const result = await work();
    return { result, waits: shares(counts) };
  } finally {
    running = false;
    await sampling;
    await client.end();
  }
}

function shares(counts: Record<string, number>): WaitShares {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0) || 1;
  return Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([key, count]) => [key, Math.round((1000 * count) / total) / 10]),
  );
}

/** One round: the app from one address, the bare server, then the app from 16 addresses, one after another. */
export type PostsRound = {
  oneAddress: LoadResult;
  sixteenAddresses: LoadResult;
  bare: LoadResult;
  deliveryLatencyMs: { p50: number; p99: number; received: number };
};

export type PostsBenchResult = {
  rounds: PostsRound[];
  floodRefused: LoadResult;
  /** PostgreSQL's backends during the first one-address run, in percent of samples. */
  waits: WaitShares;
};

/** An estimate post marked in its comments; `firstName` names it where a push's title is to show the marker. */
export function estimatePost(marker: string, forwardedFor?: string, firstName = "Bench"): LoadRequest {
  const body = new URLSearchParams({
    firstName,
    lastName: "Visitor",
    email: "bench@example.com",
    phone: "(803) 555-0100",
    city: "Sumter",
    projectType: "commercial",
    formOfContact: "Email",
    bestTime: "Morning",
    comments: marker,
    submissionKey: crypto.randomUUID(),
  }).toString();
  return {
    method: "POST",
    // As a browser with JavaScript sends the form: the public pages' script posts to its JSON answer route.
    path: "/forms/estimate",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    body,
  };
}

async function postLoad(url: string, run: string, options: { addresses?: string[]; expectStatus?: number } = {}) {
  const { addresses } = options;
  const request = (index: number) => estimatePost(`${run}-${index}`, addresses?.[index % addresses.length]);
  const expectStatus = options.expectStatus ?? 200;
  await runLoad({ url, total: WARM_UP_POSTS, concurrency: CONCURRENCY, expectStatus, request: (i) => request(-i - 1) });
  const sentAt = new Map<string, number>();
  const result = await runLoad({
    url,
    total: POSTS,
    concurrency: CONCURRENCY,
    expectStatus,
    request,
    onSend: (index) => sentAt.set(`${run}-${index}`, Date.now()),
  });
  return { result, sentAt };
}

/** Submit to webhook received, for each post of the run the receiver got. */
async function deliveryLatency(receiver: WebhookReceiver, sentAt: Map<string, number>) {
  const deadline = Date.now() + 120_000;
  const latencies: number[] = [];
  while (Date.now() < deadline) {
    latencies.length = 0;
    for (const request of receiver.requests) {
      const marker = (JSON.parse(request.body) as { comments?: string }).comments ?? "";
      const sent = sentAt.get(marker);
      if (sent !== undefined) latencies.push(request.receivedAt - sent);
    }
    if (latencies.length >= sentAt.size) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), received: latencies.length };
}

async function startBareServer(databaseUrl: string, webhookUrl: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(projectRoot, "scripts/bare-durable-write-server.mjs"), databaseUrl, webhookUrl],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    if (!child.stdout) throw new Error("no stdout");
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error("the bare server exited before listening")));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function forgetBarePosts(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("DELETE FROM submissions WHERE payload->>'comments' LIKE 'bare-%'");
  } finally {
    await client.end();
  }
}

async function withApp<T>(env: Record<string, string>, work: (url: string) => Promise<T>): Promise<T> {
  const app = await startAppServer({ env: { ...env, ...appProfiling() } });
  try {
    return await work(app.url);
  } finally {
    await app.stop();
    await rm(app.dataDir, { recursive: true, force: true });
  }
}

/**
 * Each measure is taken in ROUNDS rounds, the app's runs on either side of the bare server's, and the median
 * round is reported: on this shared machine one run of either can be 15% off the next.
 */
const ROUNDS = 3;

export async function benchPosts(): Promise<PostsBenchResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "tce-bench-posts-"));
  const postgres = await startEmbeddedPostgres({ dataDir, logger: pino({ level: "warn" }) });
  const receiver = await startWebhookReceiver();
  try {
    const env = {
      DATABASE_URL: postgres.url,
      WEBHOOK_ESTIMATE_URL: `${receiver.url}estimate`,
      LOG_LEVEL: "info",
    };
    const rounds: PostsRound[] = [];
    let waits: WaitShares = {};
    for (let round = 1; round <= ROUNDS; round++) {
      const first = await withApp({ ...env, PUBLIC_FORM_RATE_LIMIT: "1000000" }, async (url) => {
        const sampled = await sampleWaits(postgres.url, () => postLoad(url, `one-address-${round}`));
        if (round === 1) waits = sampled.waits;
        const { result, sentAt } = sampled.result;
        return { oneAddress: result, deliveryLatencyMs: await deliveryLatency(receiver, sentAt) };
      });
      const bareServer = await startBareServer(postgres.url, `${receiver.url}estimate`);
      let bare: LoadResult;
      try {
        bare = (await postLoad(bareServer.url, `bare-${round}`)).result;
      } finally {
        await bareServer.stop();
      }
      // Nothing sends the bare server's deliveries; left pending, the next app would send them all first.
      await forgetBarePosts(postgres.url);
      const sixteenAddresses = await withApp(
        { ...env, PUBLIC_FORM_RATE_LIMIT: "1000000", TRUST_PROXY: "1" },
        async (url) => (await postLoad(url, `sixteen-${round}`, { addresses: ADDRESSES })).result,
      );
      rounds.push({ ...first, bare, sixteenAddresses });
    }
    // The default limit, and one address past it: every post after the tenth is refused.
    const floodRefused = await withApp(
      { ...env, TRUST_PROXY: "1" },
      async (url) => (await postLoad(url, "flood", { addresses: ["198.51.100.1"], expectStatus: 429 })).result,
    );
    return { rounds, floodRefused, waits };
  } finally {
    await receiver.close();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function postsBenchRows(result: PostsBenchResult): BenchRow[] {
  const { rounds } = result;
  const bareRate = median(rounds.map((round) => round.bare.requestsPerSecond));
  const bare = `${perSecond(bareRate)}, p99 ${ms(median(rounds.map((round) => round.bare.latencyMs.p99)))} (bare node:http)`;
  const throughput = (measure: string, ours: (round: PostsRound) => LoadResult): BenchRow => {
    const ratios = rounds.map((round) => ours(round).requestsPerSecond / round.bare.requestsPerSecond);
    const ratio = median(ratios);
    const p99 = median(rounds.map((round) => ours(round).latencyMs.p99));
    const failures = rounds.reduce((sum, round) => sum + ours(round).failures, 0);
    const rate = median(rounds.map((round) => ours(round).requestsPerSecond));
    const range = `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
    return {
      measure,
      ours: `${perSecond(rate)}, p99 ${ms(p99)}, ${failures} failed; rounds ${range}`,
      reference: bare,
      ratio,
      goal: ">= 0.5, p99 < 50 ms, 0 failed",
      met: ratio >= 0.5 && p99 < 50 && failures === 0,
    };
  };
  const delivery = {
    p50: median(rounds.map((round) => round.deliveryLatencyMs.p50)),
    p99: median(rounds.map((round) => round.deliveryLatencyMs.p99)),
    received: rounds.reduce((sum, round) => sum + round.deliveryLatencyMs.received, 0),
  };
  const { floodRefused } = result;
  return [
    throughput(`estimate POSTs, concurrency ${CONCURRENCY}, one address`, (round) => round.oneAddress),
    throughput(`estimate POSTs, ${ADDRESSES.length} addresses via TRUST_PROXY`, (round) => round.sixteenAddresses),
    {
      measure: "posts refused past the limit, one address",
      ours: `${perSecond(floodRefused.requestsPerSecond)}, p99 ${ms(floodRefused.latencyMs.p99)}`,
      reference: `${perSecond(bareRate)} (bare stored posts)`,
      ratio: floodRefused.requestsPerSecond / bareRate,
      goal: "refused cheaply (every answer 429)",
      met: floodRefused.failures === 0,
    },
    {
      measure: "submit to webhook received, during the POST load",
      ours: `p50 ${ms(delivery.p50)}, p99 ${ms(delivery.p99)} (${delivery.received} of ${POSTS * rounds.length})`,
      reference: "",
      goal: "p50 < 100 ms, p99 < 300 ms",
      met: delivery.received === POSTS * rounds.length && delivery.p50 < 100 && delivery.p99 < 300,
    },
  ];
}

/** The figures a run of this bench leaves in docs/bench/last-posts.json when asked to (`--record`). */
export type RecordedPosts = {
  date: string;
  commit: string;
  /** The median round's estimate posts a second from one address over the bare server's in the same round. */
  ratio: number;
  postsPerSecond: number;
  barePerSecond: number;
};

const LAST_RECORDED = path.join(projectRoot, "docs/bench/last-posts.json");
/** A fall of more than this share of the last recorded ratio is reported. */
const REPORTED_FALL = 0.1;

export async function lastRecordedPosts(): Promise<RecordedPosts | undefined> {
  try {
    return JSON.parse(await readFile(LAST_RECORDED, "utf8")) as RecordedPosts;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function postsFigures(result: PostsBenchResult): Omit<RecordedPosts, "date" | "commit"> {
  const { rounds } = result;
  return {
    ratio: median(rounds.map((round) => round.oneAddress.requestsPerSecond / round.bare.requestsPerSecond)),
    postsPerSecond: median(rounds.map((round) => round.oneAddress.requestsPerSecond)),
    barePerSecond: median(rounds.map((round) => round.bare.requestsPerSecond)),
  };
}

/** Writes this run's figures as the last recorded ones, with the commit they were measured at. */
export async function recordPosts(result: PostsBenchResult): Promise<void> {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: projectRoot }).toString().trim();
  const recorded: RecordedPosts = { date: new Date().toISOString(), commit, ...postsFigures(result) };
  await mkdir(path.dirname(LAST_RECORDED), { recursive: true });
  await writeFile(LAST_RECORDED, `${JSON.stringify(recorded, null, 2)}\n`);
  console.log(
    `bench: recorded the post ratio ${recorded.ratio.toFixed(2)} in ${path.relative(projectRoot, LAST_RECORDED)}`,
  );
}

/**
 * The summary's row of the post ratio beside the last recorded one, and a line when it fell by more than a tenth:
 * a report, since one run on a shared machine can be that far off the next.
 */
export function postsAgainstLastRecorded(result: PostsBenchResult, last: RecordedPosts | undefined): BenchRow {
  const now = postsFigures(result);
  const measure = "estimate POST ratio to the bare server, one address, against the last recorded";
  const ours = `${now.ratio.toFixed(2)} (${perSecond(now.postsPerSecond)} against ${perSecond(now.barePerSecond)})`;
  const goal = `fell by no more than a tenth (--record keeps this run's)`;
  if (!last) return { measure, ours, reference: "none recorded", goal, met: undefined };
  const change = now.ratio / last.ratio;
  if (change < 1 - REPORTED_FALL) {
    console.log(
      `bench: the estimate post ratio fell by more than a tenth: ${now.ratio.toFixed(2)} against ${last.ratio.toFixed(2)} recorded at ${last.commit} on ${last.date.slice(0, 10)}`,
    );
  }
  return {
    measure,
    ours,
    reference: `${last.ratio.toFixed(2)} (${perSecond(last.postsPerSecond)} against ${perSecond(last.barePerSecond)}, ${last.commit}, ${last.date.slice(0, 10)})`,
    ratio: change,
    goal,
    met: change >= 1 - REPORTED_FALL,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildIfNeeded("bench");
  const last = await lastRecordedPosts();
  const result = await benchPosts();
  console.log("PostgreSQL's backends during the first one-address run (% of samples):", result.waits);
  printBenchTable([...postsBenchRows(result), postsAgainstLastRecorded(result, last)]);
  if (process.argv.includes("--record")) await recordPosts(result);
}
