import { afterAll, beforeAll } from "vitest";
import { type AppServer, startAppServer } from "./app-server";
import { addStaffUser, signInOverHttp } from "./staff";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * The built app on a fresh database for the test file, with a staff user signed in over HTTP (its cookie),
 * started before the tests and stopped after. Read its fields inside tests (they are filled by beforeAll).
 */
export function signedInAppForFile() {
  const state = {} as { database: TestDatabase; app: AppServer; cookie: string };
  beforeAll(async () => {
    state.database = await createTestDatabase();
    state.app = await startAppServer({ env: { DATABASE_URL: state.database.url } });
    const staff = await addStaffUser(state.database.db);
    state.cookie = await signInOverHttp(state.app.url, staff.username, staff.password);
  }, 60_000);
  afterAll(async () => {
    await state.app.stop();
    await state.database.drop();
  });
  return state;
}
