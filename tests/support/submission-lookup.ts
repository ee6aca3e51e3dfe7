import pg from "pg";
import pino from "pino";
import { openEmbeddedPostgres } from "../../app/server/db/embedded-postgres.server";

/** The id of the submission with the reference, read from the running app's embedded PostgreSQL. */
export async function submissionIdOf(dataDir: string, reference: string): Promise<number> {
  const embedded = await openEmbeddedPostgres({ dataDir, logger: pino({ level: "silent" }) });
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>("SELECT id FROM submissions WHERE reference = $1", [reference]);
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error(`no submission has the reference ${reference}`);
    return Number(id);
  } finally {
    await client.end();
    await embedded.stop();
  }
}
