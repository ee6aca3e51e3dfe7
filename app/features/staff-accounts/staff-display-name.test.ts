import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser, STAFF_PASSWORD } from "#tests/staff";
import { staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { loader as estimateChecklistLoader } from "~/routes/admin/estimate-checklist";
import { loader as estimateRequestLoader } from "~/routes/admin/estimate-request";
import { loader as jobRequestLoader } from "~/routes/admin/job-request";
import { action as staffListAction } from "~/routes/admin/staff";
import { loader as staffLayoutLoader } from "~/routes/admin/staff-layout";
import { action as staffUserAction } from "~/routes/admin/staff-user";
import { createStaffUser, findStaffUserById, findStaffUserByUsername } from "~/services/auth/staff-users.server";
import { staffUsers } from "~/services/db/schema.server";

let database: TestDatabase;
let context: AppLoadContext;
let robin: { id: number; username: string };
let admin: { id: number };
beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  robin = await createStaffUser(database.db, {
    username: "robin",
    displayName: "Robin Smith",
    password: STAFF_PASSWORD,
    role: "staff",
  });
  admin = await addStaffUser(database.db, "admin");
});
afterAll(() => database.drop());

/** A route's loader or action called as React Router calls it: only the request, context and params are read. */
type RouteFunction = (args: never) => unknown;
async function call(routeFunction: RouteFunction, request: Request, params: Record<string, string> = {}) {
  const answer = await (routeFunction as (args: object) => Promise<unknown>)({ request, context, params });
  // `data(...)` from an action carries its payload in `data`; a plain loader answer is the payload itself.
  return (answer as { data?: unknown }).data ?? answer;
}

const post = (userId: number, path: string, fields: Record<string, string>) =>
  staffRequest(context, userId, path, { method: "POST", body: new URLSearchParams(fields) });

describe("a staff account's display name", () => {
  it("is what the staff frame shows and what the staff forms are filled in with, not the login name", async () => {
    const get = (path: string) => staffRequest(context, robin.id, path);
    expect(await call(staffLayoutLoader, await get("/admin/quick-links"))).toMatchObject({
      displayName: "Robin Smith",
    });
    expect(await call(estimateRequestLoader, await get("/admin/quick-links/estimate-request"))).toEqual({
      submittedBy: "Robin Smith",
    });
    expect(await call(jobRequestLoader, await get("/admin/quick-links/job-request"))).toEqual({
      submittedBy: "Robin Smith",
    });
    expect(await call(estimateChecklistLoader, await get("/admin/quick-links/estimate-checklist"))).toMatchObject({
      defaults: { fillerName: "Robin Smith" },
    });
  });

  it("is set when an admin adds a user, and is the username when left empty", async () => {
    const added = (await call(
      staffListAction,
      await post(admin.id, "/admin/staff", {
        intent: "add-user",
        username: "sam",
        displayName: "  Sam Carter ",
        role: "staff",
        password: STAFF_PASSWORD,
        confirmPassword: STAFF_PASSWORD,
      }),
    )) as StaffFormResult;
    expect(added.status).toBe("success");
    expect((await findStaffUserByUsername(database.db, "sam"))?.displayName).toBe("Sam Carter");

    await call(
      staffListAction,
      await post(admin.id, "/admin/staff", {
        intent: "add-user",
        username: "lee",
        displayName: "",
        role: "staff",
        password: STAFF_PASSWORD,
        confirmPassword: STAFF_PASSWORD,
      }),
    );
    expect((await findStaffUserByUsername(database.db, "lee"))?.displayName).toBe("lee");
  });

  it("can be changed by an admin on the user's page, but not to nothing", async () => {
    const path = `/admin/staff/${robin.id}`;
    const params = { userId: String(robin.id) };
    const changed = (await call(
      staffUserAction,
      await post(admin.id, path, { intent: "set-display-name", displayName: "Robin A. Smith" }),
      params,
    )) as StaffFormResult;
    expect(changed).toMatchObject({ status: "success", message: "robin is now shown as Robin A. Smith." });
    expect((await findStaffUserById(database.db, robin.id))?.displayName).toBe("Robin A. Smith");

    const emptied = (await call(
      staffUserAction,
      await post(admin.id, path, { intent: "set-display-name", displayName: "   " }),
      params,
    )) as StaffFormResult;
    expect(emptied.status).toBe("error");
    expect(emptied.fieldErrors?.displayName).toEqual(["Enter a display name"]);
    expect((await findStaffUserById(database.db, robin.id))?.displayName).toBe("Robin A. Smith");
  });

  it("is filled with the username for the accounts that existed before the column", async () => {
    // The table as it was before the migration, with an account in it; then the migration's own statements.
    await database.pool.query("ALTER TABLE staff_users DROP COLUMN display_name");
    await database.pool.query(
      "INSERT INTO staff_users (username, password_hash, role) VALUES ('old-timer', 'not a real hash', 'staff')",
    );
    const migration = await readFile(path.resolve("drizzle/0021_staff_display_name.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await database.pool.query(statement);
    const [row] = await database.db
      .select({ displayName: staffUsers.displayName })
      .from(staffUsers)
      .where(eq(staffUsers.username, "old-timer"));
    expect(row?.displayName).toBe("old-timer");
  });
});
