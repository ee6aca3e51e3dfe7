import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createTestDatabase } from "#tests/test-database";
import { inTransaction } from "./database.server";

it("keeps no connection checked out when PostgreSQL goes away under transactions, and serves again after", async () => {
  const database = await createTestDatabase();
  try {
    for (let outage = 0; outage < 12; outage++) {
      // Connections left idle in the pool, whose server sessions the outage then ends.
      await Promise.all(Array.from({ length: 4 }, () => database.db.execute(sql`SELECT pg_sleep(0.01)`)));
      await database.setReachable(false);
      await expect(inTransaction(database.db, (tx) => tx.execute(sql`SELECT 1`))).rejects.toThrow();
      await database.setReachable(true);
    }
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
    const answer = await inTransaction(database.db, (tx) => tx.execute<{ ok: number }>(sql`SELECT 1 AS ok`));
    expect(answer.rows[0]?.ok).toBe(1);
  } finally {
    await database.drop();
  }
});
