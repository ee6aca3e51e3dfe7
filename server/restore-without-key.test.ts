import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { LOST_DATA_ENCRYPTION_KEY, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser, currentTotpCode, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { enableTotp } from "~/services/auth/second-factor.server";

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
let database: TestDatabase;
let app: AppServer;
let username: string;
let password: string;

// A database restored onto a server without its DATA_ENCRYPTION_KEY: a user's second factor was sealed with
// another key.
beforeAll(async () => {
  database = await createTestDatabase();
  const user = await addStaffUser(database.db);
  ({ username, password } = user);
  await enableTotp(database.db, LOST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
  app = await startAppServer({ env: { DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY } });
}, 90_000);
afterAll(async () => {
  await app?.stop();
  await database?.drop();
});

it("says at start whose second factor the key cannot read, and how to reset it", async () => {
  const line = await app.waitForLine("DATA_ENCRYPTION_KEY cannot read");
  expect(line).toContain(
    `DATA_ENCRYPTION_KEY cannot read the second-factor secrets of 1 staff account (${username}): they cannot finish signing in until an admin removes their two-step verification at /admin/staff, or runs npm run user -- reset-two-factor NAME`,
  );
});

it("answers the code step with what to do, not a 500", async () => {
  const pendingCookie = await signInOverHttp(app.url, username, password);
  const answer = await fetch(`${app.url}/admin/verify`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: pendingCookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ code: currentTotpCode(SECRET) }),
  });
  expect(answer.status).toBe(409);
  expect(await answer.text()).toContain("an admin must reset it");
});
