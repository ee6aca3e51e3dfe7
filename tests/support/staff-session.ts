import { startSession } from "../../app/services/auth/sessions.server";
import { createStaffUser } from "../../app/services/auth/staff-users.server";
import { loadConfig } from "../../app/services/config.server";
import type { StaffRole } from "../../app/services/db/schema.server";
import { withAppDatabase } from "./app-database";
import { cookieFrom } from "./staff";
import { TEST_SESSION_SECRET } from "./test-session-secret";

let counter = 0;

/**
 * Creates a staff user and a session for them straight in the database of a running app (its embedded
 * PostgreSQL, found in its data directory), with the app's own session code, and returns the user and the
 * signed `name=value` cookie of that session, as signing in would have set it.
 */
export async function startStaffSession(options: { dataDir: string; role: StaffRole; label: string }) {
  counter += 1;
  const username = `${options.label}-${options.role}-${process.pid}-${counter}`.toLowerCase();
  return withAppDatabase(options.dataDir, async (db) => {
    const user = await createStaffUser(db, {
      username,
      password: `unused password of ${username}`,
      role: options.role,
    });
    // The settings the app runs with in the tests; the session lifetimes are the app's defaults.
    const config = loadConfig({ NODE_ENV: "production", SESSION_SECRET: TEST_SESSION_SECRET });
    const setCookie = await startSession(db, config, { userId: user.id, secondFactorPending: false });
    return { user, cookie: cookieFrom(setCookie) };
  });
}
