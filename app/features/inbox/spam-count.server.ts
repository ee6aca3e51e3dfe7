import { count, eq } from "drizzle-orm";
import type { Database } from "~/services/db/database.server";
import { submissions } from "~/services/db/schema.server";

/** How many submissions are held as spam: kept, undelivered, and listed under the inbox's Spam filter. */
export async function countHeldSpam(db: Database): Promise<number> {
  const [row] = await db.select({ count: count() }).from(submissions).where(eq(submissions.isSpam, true));
  return row?.count ?? 0;
}
