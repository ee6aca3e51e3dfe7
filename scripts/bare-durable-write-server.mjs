// The bench's reference for form posts: the least a server can do to store a post durably. node:http, pg, one
// transaction inserting a submission row and its delivery row into the app's own tables, committed (with
// synchronous_commit on, PostgreSQL's default) before the answer. No validation, logging or framework.
// Usage: node scripts/bare-durable-write-server.mjs <DATABASE_URL> <webhook url>; prints its URL when listening.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";

const [databaseUrl, webhookUrl] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

async function store(payload) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const reference = `EST-${randomBytes(6).toString("hex").slice(0, 6).toUpperCase()}`;
    const { rows } = await client.query(
      `INSERT INTO submissions (reference, type, submission_key, payload, status, client_ip)
       VALUES ($1, 'estimate', $2, $3, 'new', $4) RETURNING id`,
      [reference, payload.submissionKey ?? randomUUID(), payload, "127.0.0.1"],
    );
    await client.query(
      `INSERT INTO deliveries (submission_id, webhook_id, reference, channel, target, destination, body)
       VALUES ($1, $2, $3, 'webhook', 'WEBHOOK_ESTIMATE_URL', $4, $5)`,
      [rows[0].id, `msg_${randomUUID().replaceAll("-", "")}`, reference, webhookUrl, payload],
    );
    await client.query("COMMIT");
    return reference;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const payload = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    store(payload).then(
      (reference) => {
        const body = JSON.stringify({ status: "success", reference });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      },
      () => {
        res.writeHead(503).end();
      },
    );
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end();
});
