import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { action as accountAction } from "./admin/account";
import { action as staffUserAction } from "./admin/staff-user";
import { loader as calendarFeed } from "./calendar-feed";

/*
 * A calendar address is read without a session, so it must go wherever the person's access goes: turned off by
 * them or by an admin, and with "sign out everywhere", a password reset and a lost second factor's removal.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

type RouteArgs = Parameters<typeof accountAction>[0];

/** Posts `fields` to a staff route's action as `userId`, through the staff middleware, as the page's form does. */
async function postAs(
  userId: number,
  path: string,
  fields: Record<string, string>,
  action: (args: RouteArgs) => unknown,
  params: Record<string, string> = {},
) {
  const context = loadContextFor(database.db);
  const request = await staffRequest(context, userId, path, { method: "POST", body: new URLSearchParams(fields) });
  return (await action({ request, context, params } as unknown as RouteArgs)) as {
    data: { status: string; message: string; calendarAddress?: string };
  };
}

/** Makes the user's calendar address on Your settings and answers the file part of it, as the route gets it. */
async function makeAddress(userId: number): Promise<string> {
  const made = await postAs(userId, "/admin/account", { intent: "make-calendar-address" }, accountAction);
  const file = made.data.calendarAddress?.split("/").pop();
  if (!file) throw new Error("no calendar address made");
  return file;
}

/** What a calendar app gets at the address: the status and the body. */
async function fetchFeed(file: string) {
  const context = loadContextFor(database.db);
  const request = new Request(`http://localhost/calendar/${file}`);
  const answer = await calendarFeed({ request, context, params: { file } } as unknown as Parameters<
    typeof calendarFeed
  >[0]);
  return { status: answer.status, body: await answer.text() };
}

async function expectGone(file: string) {
  const feed = await fetchFeed(file);
  expect(feed.status).toBe(404);
  expect(feed.body).not.toContain("BEGIN:VCALENDAR");
}

const adminAction = (admin: number, userId: number, fields: Record<string, string>) =>
  postAs(admin, `/admin/staff/${userId}`, fields, staffUserAction as never, { userId: String(userId) });

describe("a calendar address", () => {
  it("is turned off by its owner on Your settings", async () => {
    const user = await addStaffUser(database.db);
    const file = await makeAddress(user.id);
    expect((await fetchFeed(file)).status).toBe(200);
    const answer = await postAs(user.id, "/admin/account", { intent: "turn-off-calendar-address" }, accountAction);
    expect(answer.data).toMatchObject({ status: "success", message: expect.stringContaining("is off") });
    await expectGone(file);
  });

  it("is turned off by an admin on the person's staff account page", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const user = await addStaffUser(database.db);
    const file = await makeAddress(user.id);
    const answer = await adminAction(admin.id, user.id, { intent: "turn-off-calendar-address" });
    expect(answer.data).toMatchObject({ status: "success", message: expect.stringContaining("no longer works") });
    await expectGone(file);
  });

  it.each([
    ["sign out everywhere", { intent: "sign-out-everywhere" }],
    [
      "a password reset",
      { intent: "reset-password", password: "a new long password 7", confirmPassword: "a new long password 7" },
    ],
    ["the removal of a second factor", { intent: "remove-second-factor" }],
  ])("is gone with %s by an admin", async (_what, fields) => {
    const admin = await addStaffUser(database.db, "admin");
    const user = await addStaffUser(database.db);
    const file = await makeAddress(user.id);
    const answer = await adminAction(admin.id, user.id, fields);
    expect(answer.data.status).toBe("success");
    await expectGone(file);
  });

  it("stays gone when a deactivated account is activated again", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const user = await addStaffUser(database.db);
    const file = await makeAddress(user.id);
    await adminAction(admin.id, user.id, { intent: "deactivate" });
    await adminAction(admin.id, user.id, { intent: "reactivate" });
    await expectGone(file);
  });
});
