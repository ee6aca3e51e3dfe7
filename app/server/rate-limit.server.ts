import { sql } from "drizzle-orm";
import type { Database } from "./db/database.server";

export type RateLimit = { limit: number; windowSeconds: number };

/**
 * Counts one hit for `key` in the current fixed window and says whether it is within the limit. The
 * counters live in PostgreSQL, so every app instance shares them.
 */
export async function hitRateLimit(db: Database, key: string, { limit, windowSeconds }: RateLimit): Promise<boolean> {
  const result = await db.execute<{ count: number }>(sql`
    INSERT INTO rate_limit_counters (key, window_start, count)
    VALUES (${key}, to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}) * ${windowSeconds}), 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
    RETURNING count`);
  // Old windows are swept now and then rather than on every hit.
  if (Math.random() < 0.01) {
    await db.execute(sql`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day'`);
  }
  return Number(result.rows[0]?.count ?? 0) <= limit;
}
