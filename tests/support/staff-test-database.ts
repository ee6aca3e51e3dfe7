import { afterAll, beforeAll } from "vitest";
import { addStaffUser } from "./staff";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * A fresh database for the test file and a staff user acting in it, set up before the tests and dropped
 * after. Read its fields inside tests (they are filled by beforeAll).
 */
export function staffTestDatabaseForFile() {
  const state = {} as { database: TestDatabase; actorId: number };
  beforeAll(async () => {
    state.database = await createTestDatabase();
    state.actorId = (await addStaffUser(state.database.db)).id;
  });
  afterAll(() => state.database.drop());
  return state;
}
