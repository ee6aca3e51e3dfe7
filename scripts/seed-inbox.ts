// `DATABASE_URL=postgres://... npx tsx scripts/seed-inbox.ts [count]`: migrates the database, then adds `count`
// (100,000) realistic submissions of every type with deliveries in mixed states, for measuring the inbox.
// Everything is generated inside PostgreSQL (INSERT ... SELECT generate_series), so 100k rows take seconds.
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { applyMigrations } from "../app/services/db/migrations.server";
import { projectRoot } from "./build-info.mjs";

export const INBOX_SEED_SIZE = 100_000;

const FIRST_NAMES = ["Avery", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Quinn", "Harper", "Rowan"];
const LAST_NAMES = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Wilson", "Moore"];
const CITIES = ["Sumter", "Columbia", "Florence", "Orangeburg", "Camden", "Manning", "Bishopville", "Lexington"];

/**
 * Submissions a few minutes apart going back about a year: 70% estimate requests, 20% applications, 10%
 * assessments; 4% spam (deliveries held); of the rest, 5% without deliveries, 3% with a failed one, 2% still
 * retrying, the others delivered. Newer rows are mostly still in their first status.
 */
export async function seedInbox(pool: pg.Pool, count = INBOX_SEED_SIZE): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `CREATE TEMP TABLE seed ON COMMIT DROP AS
       SELECT n,
         CASE WHEN n % 10 < 7 THEN 'estimate' WHEN n % 10 < 9 THEN 'application' ELSE 'assessment' END AS type,
         ($2::text[])[1 + n % array_length($2, 1)] AS first_name,
         ($3::text[])[1 + (n / 10) % array_length($3, 1)] AS last_name,
         ($4::text[])[1 + n % array_length($4, 1)] AS city,
         '(803) 555-' || lpad((n % 10000)::text, 4, '0') AS phone,
         now() - n * interval '5 minutes' - (n % 17) * interval '1 second' AS created_at,
         n % 25 = 0 AS is_spam
       FROM generate_series(1, $1::int) AS n`,
      [count, FIRST_NAMES, LAST_NAMES, CITIES],
    );
    await client.query(
      `INSERT INTO submissions (reference, type, submission_key, payload, is_spam, spam_reason, status,
         status_changed_at, created_at, contact_name, contact_email, contact_phone)
       SELECT
         CASE type WHEN 'estimate' THEN 'EST-' WHEN 'application' THEN 'APP-' ELSE 'ASM-' END
           || lpad(upper(to_hex(n::bigint * 7919 % 16777216)), 6, '0'),
         type,
         'seed-' || n,
         CASE type
           WHEN 'estimate' THEN jsonb_build_object('firstName', first_name, 'lastName', last_name,
             'email', lower(first_name || '.' || last_name || n) || '@example.com', 'phone', phone, 'city', city,
             'projectType', CASE WHEN n % 3 = 0 THEN 'residential' ELSE 'commercial' END,
             'formOfContact', 'Phone call', 'bestTime', 'Morning', 'comments', 'Lighting retrofit, seed ' || n)
           WHEN 'application' THEN jsonb_build_object('firstName', first_name, 'lastName', last_name,
             'email', lower(first_name || '.' || last_name || n) || '@example.com', 'phone', phone,
             'address', n || ' Main St, ' || city, 'desiredRole', 'Apprentice', 'experienceLevel', (n % 12)::text)
           ELSE jsonb_build_object('answers', jsonb_build_object('1', first_name || ' ' || last_name,
             '2', lower(first_name || '.' || last_name || n) || '@example.com', '3', phone),
             'score', jsonb_build_object('correct', n % 19, 'total', 18, 'percentage', (n % 19) * 100 / 18))
         END,
         is_spam,
         CASE WHEN is_spam THEN 'filled too fast' END,
         CASE
           WHEN n < 300 OR n % 7 = 0 THEN CASE type WHEN 'application' THEN 'Received' ELSE 'New' END
           WHEN type = 'estimate' THEN (ARRAY['Contacted', 'Scheduled', 'Won', 'Lost', 'Archived'])[1 + n % 5]
           WHEN type = 'application' THEN (ARRAY['Reviewing', 'Interview', 'Hired', 'Rejected'])[1 + n % 4]
           ELSE (ARRAY['Reviewed', 'Archived'])[1 + n % 2]
         END,
         created_at,
         created_at,
         first_name || ' ' || last_name,
         lower(first_name || '.' || last_name || n) || '@example.com',
         phone
       FROM seed`,
    );
    // One delivery per target: estimates and applications have two (webhook and email), assessments one.
    await client.query(
      `INSERT INTO deliveries (submission_id, webhook_id, channel, target, destination, body, status,
         attempt_count, next_attempt_at, last_error, delivered_at, created_at)
       SELECT s.id, 'msg_seed_' || s.id || '_' || target.number,
         target.channel, target.name, target.destination, '{}'::json,
         state.status,
         CASE state.status WHEN 'delivered' THEN 1 WHEN 'failed' THEN 8 WHEN 'pending' THEN 3 ELSE 0 END,
         -- A retry due tomorrow: an app started on the seeded database does not try to send it.
         CASE WHEN state.status = 'pending' THEN now() + interval '1 day' ELSE s.created_at END,
         CASE WHEN state.status IN ('failed', 'pending') THEN 'HTTP 503' END,
         CASE WHEN state.status = 'delivered' THEN s.created_at + interval '2 seconds' END,
         s.created_at
       FROM seed
       JOIN submissions AS s ON s.submission_key = 'seed-' || seed.n
       CROSS JOIN LATERAL (VALUES
         (1, 'webhook', 'WEBHOOK_ESTIMATE_URL', 'http://127.0.0.1:9/estimate'),
         (2, 'email', 'STAFF_NOTIFY_EMAIL', 'office@example.com')) AS target(number, channel, name, destination)
       CROSS JOIN LATERAL (SELECT CASE
         WHEN seed.is_spam THEN 'held'
         WHEN seed.n % 100 < 3 AND target.number = 1 THEN 'failed'
         WHEN seed.n % 100 IN (3, 4) AND target.number = 1 THEN 'pending'
         ELSE 'delivered' END AS status) AS state
       WHERE seed.n % 100 NOT BETWEEN 50 AND 54 AND (target.number = 1 OR seed.type <> 'assessment')`,
    );
    await client.query("COMMIT");
    await client.query("VACUUM ANALYZE submissions");
    await client.query("VACUUM ANALYZE deliveries");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to the database to seed (it is migrated first).");
  const count = Number(process.argv[2] ?? INBOX_SEED_SIZE);
  const pool = new pg.Pool({ connectionString: url });
  try {
    await applyMigrations(pool, path.join(projectRoot, "drizzle"));
    const started = performance.now();
    await seedInbox(pool, count);
    console.log(`seed-inbox: ${count} submissions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await pool.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await main();
  } catch (error) {
    console.error("seed-inbox: failed:", error);
    process.exitCode = 1;
  }
}
