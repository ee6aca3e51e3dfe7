import pg from "pg";
import pino from "pino";
import { openEmbeddedPostgres } from "../../app/services/db/embedded-postgres.server";

/** One query against the running app's embedded PostgreSQL, for browser tests that check what was stored. */
export async function queryAppDatabase<Row extends pg.QueryResultRow>(
  dataDir: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const embedded = await openEmbeddedPostgres({ dataDir, logger: pino({ level: "silent" }) });
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
    await embedded.stop();
  }
}

/** The id of the submission with the reference, and how the guards judged it. */
export async function storedSubmissionOf(
  dataDir: string,
  reference: string,
): Promise<{ id: number; isSpam: boolean; suspiciousReason: string | null }> {
  const [row] = await queryAppDatabase<{ id: string; is_spam: boolean; suspicious_reason: string | null }>(
    dataDir,
    "SELECT id, is_spam, suspicious_reason FROM submissions WHERE reference = $1",
    [reference],
  );
  if (!row) throw new Error(`no submission has the reference ${reference}`);
  return { id: Number(row.id), isSpam: row.is_spam, suspiciousReason: row.suspicious_reason };
}

/** The id of the submission with the reference, read from the running app's embedded PostgreSQL. */
export async function submissionIdOf(dataDir: string, reference: string): Promise<number> {
  return (await storedSubmissionOf(dataDir, reference)).id;
}

/** How many submissions of a type the running app stored under a contact name. */
export async function countSubmissionsOf(dataDir: string, type: string, contactName: string): Promise<number> {
  const [row] = await queryAppDatabase<{ count: string }>(
    dataDir,
    "SELECT count(*) FROM submissions WHERE type = $1 AND contact_name = $2",
    [type, contactName],
  );
  return Number(row?.count ?? 0);
}
