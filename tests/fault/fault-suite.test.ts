import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../app/services/db/embedded-postgres.server";
import { percentile } from "../../scripts/percentile";
import { startAppServer } from "../support/app-server";
import { type EstimatePostResult, postEstimate } from "../support/estimate-post";
import { startSmtpReceiver } from "../support/smtp-receiver";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { waitFor } from "../support/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import {
  allDelivered,
  type FaultRow,
  formatFaultTable,
  reconcile,
  sameWebhookIdAcrossRetries,
} from "./delivery-ledger";

const SUBMISSIONS = 200;
/** Short retries, enough of them to outlast every fault here. */
const RETRY_SCHEDULE = ["0", "500ms", ...Array.from({ length: 30 }, () => "1s")].join(",");
const OFFICE_PHONE = "(803) 555-0142";
const DELIVERY_DEADLINE_MS = 90_000;

const table: FaultRow[] = [];

afterAll(() => {
  console.log(`\nFault suite\n${formatFaultTable(table)}\n`);
});

describe("fault suite", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function database(): Promise<TestDatabase> {
    const created = await createTestDatabase();
    cleanups.push(() => created.drop());
    return created;
  }

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver();
    cleanups.push(() => started.close());
    return started;
  }

  async function app(databaseUrl: string, hooks: WebhookReceiver, env: Record<string, string> = {}) {
    const started = await startAppServer({
      env: {
        DATABASE_URL: databaseUrl,
        WEBHOOK_ESTIMATE_URL: `${hooks.url}hooks/estimate`,
        DELIVERY_RETRY_SCHEDULE: RETRY_SCHEDULE,
        PUBLIC_FORM_RATE_LIMIT: "100000",
        ...env,
      },
    });
    cleanups.push(() => started.stop("SIGKILL"));
    return started;
  }

  /** Posts `count` estimate requests, `concurrency` at a time, each one different; returns the answers. */
  async function post(appUrl: string, label: string, count: number, concurrency = 8): Promise<EstimatePostResult[]> {
    const results: EstimatePostResult[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const n = next++;
          results.push(await postEstimate(`${appUrl}/lighting`, { comments: `${label} #${n}` }));
        }
      }),
    );
    return results;
  }

  /** Posts until `stop()` says so; a post the app did not answer (it was killed) ends that poster. */
  function postUntil(appUrl: string, label: string, stop: () => boolean, concurrency = 8) {
    const results: EstimatePostResult[] = [];
    let n = 0;
    const done = Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (!stop()) {
          const result = await postEstimate(`${appUrl}/lighting`, { comments: `${label} #${n++}` });
          results.push(result);
          if (result.status === 0) return;
        }
      }),
    );
    return { results, done };
  }

  const referencesOf = (results: EstimatePostResult[]) =>
    results.flatMap((result) => (result.reference ? [result.reference] : []));

  async function settle(scenario: string, db: TestDatabase, hooks: WebhookReceiver, references: string[]) {
    await waitFor(
      "every acknowledged request to be delivered",
      () => allDelivered(db.pool, references),
      DELIVERY_DEADLINE_MS,
    );
    const row = await reconcile(scenario, db.pool, hooks, references);
    table.push(row);
    expect(await sameWebhookIdAcrossRetries(db.pool, hooks)).toBe(true);
    expect(row).toMatchObject({ acknowledged: references.length, stored: references.length, lost: 0 });
    expect(row.delivered).toBe(references.length);
    return row;
  }

  /**
   * Deliveries whose attempt count differs from the attempts their log holds: there should be none. Posts cut by a
   * kill may still be stored and sent after the acknowledged ones arrived, so this waits for every delivery to end.
   */
  async function attemptsDisagreeing(db: TestDatabase) {
    await waitFor(
      "every delivery, acknowledged or not, to be sent",
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM deliveries WHERE status IN ('pending', 'sending')",
        );
        return rows[0]?.n === 0;
      },
      DELIVERY_DEADLINE_MS,
    );
    const { rows } = await db.pool.query(
      `SELECT d.id, d.status, d.attempt_count, array_agg(coalesce(a.error, a.http_status::text) ORDER BY a.id) AS log
       FROM deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
       GROUP BY d.id HAVING d.attempt_count <> count(a.id)`,
    );
    return rows;
  }

  it("receiver down for 10 s", async () => {
    const db = await database();
    const hooks = await receiver();
    const running = await app(db.url, hooks);
    await hooks.stop();
    const downSince = Date.now();
    const results = await post(running.url, "down", SUBMISSIONS);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - downSince))));
    await hooks.start();

    const references = referencesOf(results);
    expect(references).toHaveLength(SUBMISSIONS);
    await settle("receiver down 10 s", db, hooks, references);
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM delivery_attempts WHERE error = 'ECONNREFUSED'",
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  it("receiver answering 500", async () => {
    const db = await database();
    const hooks = await receiver();
    hooks.setDefaultResponse({ status: 500, body: "boom" });
    const running = await app(db.url, hooks);
    const results = await post(running.url, "500", SUBMISSIONS);
    await waitFor("a few hundred 500s", () => hooks.requests.length >= SUBMISSIONS);
    hooks.setDefaultResponse({ status: 200, body: "ok" });

    const row = await settle("receiver answering 500", db, hooks, referencesOf(results));
    expect(row.duplicates).toBe(0);
    expect(hooks.requests.filter((request) => request.answeredStatus === 500).length).toBeGreaterThanOrEqual(
      SUBMISSIONS,
    );
  });

  it("receiver redirecting", async () => {
    const db = await database();
    const hooks = await receiver();
    const elsewhere = await receiver();
    hooks.setDefaultResponse({ redirect: `${elsewhere.url}moved` });
    const running = await app(db.url, hooks);
    const results = await post(running.url, "redirect", SUBMISSIONS);
    await waitFor("every request redirected once", () => hooks.requests.length >= SUBMISSIONS);
    hooks.setDefaultResponse({ status: 200, body: "ok" });

    const row = await settle("receiver redirecting", db, hooks, referencesOf(results));
    expect(row.duplicates).toBe(0);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("receiver slower than the 15 s time-out", async () => {
    const db = await database();
    const hooks = await receiver();
    hooks.setDefaultResponse({ status: 200, delayMs: 16_000 });
    const running = await app(db.url, hooks);
    const results = await post(running.url, "slow", SUBMISSIONS);
    await waitFor("the first sends to be held", () => hooks.requests.length > 0);
    hooks.setDefaultResponse({ status: 200, body: "ok" });

    const row = await settle("receiver slower than 15 s", db, hooks, referencesOf(results));
    expect(row.duplicates).toBe(0);
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM delivery_attempts WHERE error = 'timed out'",
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  /**
   * Posts SUBMISSIONS estimate requests to an app with a webhook and the office email, waits for every email,
   * and returns the emails' delivery times (stored to delivered), ascending.
   */
  async function officeEmailTimes(db: TestDatabase, hooks: WebhookReceiver, label: string) {
    const smtp = await startSmtpReceiver();
    cleanups.push(() => smtp.close());
    const running = await app(db.url, hooks, {
      SMTP_URL: smtp.smtpUrl,
      STAFF_NOTIFY_EMAIL: "office@example.com",
      MAIL_FROM: "Website <website@example.com>",
    });
    const references = referencesOf(await post(running.url, label, SUBMISSIONS));
    const emailTimes = async () =>
      (
        await db.pool.query<{ ms: number }>(
          `SELECT (extract(epoch FROM delivered_at - created_at) * 1000)::int AS ms FROM deliveries
           WHERE target = 'STAFF_NOTIFY_EMAIL' AND status = 'delivered' ORDER BY 1`,
        )
      ).rows.map((row) => row.ms);
    const times = await waitFor(
      "every office email to be delivered",
      async () => {
        const delivered = await emailTimes();
        return delivered.length === references.length && delivered;
      },
      DELIVERY_DEADLINE_MS,
    );
    expect(smtp.messages).toHaveLength(references.length);
    return { references, times };
  }

  it("a slow target beside a fast one", async () => {
    // The reference, in the same run on the same machine: the office emails beside a webhook that answers.
    const referenceDb = await database();
    const answering = await receiver();
    const reference = await officeEmailTimes(referenceDb, answering, "reference");

    const db = await database();
    const hooks = await receiver();
    hooks.setDefaultResponse({ hang: true });
    const { references, times } = await officeEmailTimes(db, hooks, "two targets");
    // Every office email went out while every webhook send hung.
    expect(hooks.hangingCount()).toBeGreaterThan(0);
    const { rows: slowDelivered } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM deliveries WHERE target = 'WEBHOOK_ESTIMATE_URL' AND status = 'delivered'",
    );
    expect(slowDelivered[0]?.n).toBe(0);

    hooks.setDefaultResponse({ status: 200, body: "ok" });
    hooks.releaseHanging();
    const row = await settle("slow target beside a fast one", db, hooks, references);
    const p99 = percentile(times, 0.99);
    const referenceP99 = percentile(reference.times, 0.99);
    row.note = `fast target p99 ${p99} ms; ${referenceP99} ms beside a webhook that answers (x${(p99 / referenceP99).toFixed(2)})`;
  });

  it("kill -9 of the app mid-send", async () => {
    const db = await database();
    const hooks = await receiver();
    hooks.setDefaultResponse({ hang: true });
    const first = await app(db.url, hooks);
    const results = await post(first.url, "mid-send", SUBMISSIONS);
    await waitFor("sends in flight", () => hooks.hangingCount() >= 10);

    await first.stop("SIGKILL");
    // Cut mid-send: what the dead instance had claimed and not finished.
    const { rows: sending } = await db.pool.query<{ webhook_id: string }>(
      "SELECT webhook_id FROM deliveries WHERE status = 'sending'",
    );
    const cut = sending.map((row) => row.webhook_id);
    expect(cut.length).toBeGreaterThan(0);
    // A send claimed just before the kill may not have reached the receiver yet: it arrives once, as the resend.
    const reached = new Set(hooks.requests.map((request) => request.headers["webhook-id"]));
    hooks.setDefaultResponse({ status: 200, body: "ok" });
    hooks.releaseHanging("destroy");
    await app(db.url, hooks);

    const row = await settle("kill -9 mid-send", db, hooks, referencesOf(results));
    row.note = `${cut.length} sends cut, each resent`;
    for (const id of cut) {
      const sends = hooks.requests.filter((request) => request.headers["webhook-id"] === id).length;
      expect(sends).toBeGreaterThanOrEqual(reached.has(id) ? 2 : 1);
    }
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM delivery_attempts WHERE error = 'no outcome recorded: the instance sending it stopped or lost its database'",
    );
    expect(rows[0]?.n).toBe(cut.length);
    expect(await attemptsDisagreeing(db)).toEqual([]);
  });

  it("kill -9 under POST load, three times", async () => {
    const db = await database();
    const hooks = await receiver();
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      const running = await app(db.url, hooks);
      const load = postUntil(running.url, `load ${round}`, () => false);
      await waitFor("a third of the posts", () => referencesOf(load.results).length >= SUBMISSIONS / 3);
      await running.stop("SIGKILL");
      await load.done;
      acknowledged.push(...referencesOf(load.results));
    }
    await app(db.url, hooks);

    const row = await settle("kill -9 under POST load x3", db, hooks, acknowledged);
    row.note = "duplicates: sends cut after the receiver answered";
    expect(await attemptsDisagreeing(db)).toEqual([]);
  });

  it("two instances on one database", async () => {
    const db = await database();
    const hooks = await receiver();
    const [first, second] = await Promise.all([app(db.url, hooks), app(db.url, hooks)]);
    if (!first || !second) throw new Error("no apps");
    const results = (
      await Promise.all([post(first.url, "first", SUBMISSIONS / 2), post(second.url, "second", SUBMISSIONS / 2)])
    ).flat();

    const row = await settle("two instances on one database", db, hooks, referencesOf(results));
    expect(row.duplicates).toBe(0);
    expect(hooks.overlappingIds.size).toBe(0);
    const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM delivery_attempts");
    expect(rows[0]?.n).toBe(SUBMISSIONS);
  });

  it("PostgreSQL stopped and started again under load", async () => {
    const logger = pino({ level: "silent" });
    const dataDir = await mkdtemp(path.join(tmpdir(), "tce-fault-pg-"));
    let postgres = await startEmbeddedPostgres({ dataDir, logger });
    cleanups.push(() => postgres.stop());
    const hooks = await receiver();
    const running = await app(postgres.url, hooks);

    let stopping = false;
    const load = postUntil(running.url, "restart", () => stopping, 4);
    await waitFor("posts before the restart", () => referencesOf(load.results).length >= 50);
    await postgres.stop();
    const answeredWhileDown = load.results.length;
    await waitFor(
      "posts answered while PostgreSQL is down",
      () => load.results.slice(answeredWhileDown).filter((result) => result.status === 503).length >= 20,
    );
    expect((await fetch(`${running.url}/readyz`)).status).toBe(503);
    postgres = await startEmbeddedPostgres({ dataDir, logger });
    await waitFor("posts stored again", () => referencesOf(load.results.slice(answeredWhileDown)).length >= 50);
    stopping = true;
    await load.done;

    const whileDown = load.results.slice(answeredWhileDown).filter((result) => result.status === 503);
    for (const result of whileDown) expect(result.body).toContain(OFFICE_PHONE);
    expect(running.process.exitCode).toBeNull();
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);

    const pool = new pg.Pool({ connectionString: postgres.url });
    cleanups.push(() => pool.end());
    const references = referencesOf(load.results);
    await waitFor(
      "every acknowledged request to be delivered",
      () => allDelivered(pool, references),
      DELIVERY_DEADLINE_MS,
    );
    const row = await reconcile("PostgreSQL stopped and started under load", pool, hooks, references);
    row.note = `${whileDown.length} posts answered 503 with the office phone while it was down`;
    table.push(row);
    expect(row).toMatchObject({ acknowledged: references.length, stored: references.length, lost: 0 });
    expect(row.delivered).toBe(references.length);
  });
});
