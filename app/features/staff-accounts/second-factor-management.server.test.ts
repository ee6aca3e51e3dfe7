import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOST_DATA_ENCRYPTION_KEY, loadContextFor, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser, cookieFrom, currentTotpCode } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { enableTotp, replaceRecoveryCodes } from "~/services/auth/second-factor.server";
import { startSession } from "~/services/auth/sessions.server";
import { staffSessions, staffUsers } from "~/services/db/schema.server";
import { SECOND_FACTOR_UNREADABLE_MESSAGE } from "./schemas";
import { signIn } from "./sign-in.server";
import { loadStaffUser, staffUserAction } from "./staff-management.server";
import { twoFactorAction } from "./two-factor-enrolment.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
let address = 0;
const context = () => loadContextFor(database.db, {}, `203.0.113.${++address}`);

async function userWithTotp(role: "staff" | "admin" = "staff") {
  const user = await addStaffUser(database.db, role);
  await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
  const cookie = cookieFrom(
    await startSession(database.db, context().config, { userId: user.id, secondFactorPending: false }),
  );
  return { ...user, cookie };
}

function post(url: string, fields: Record<string, string>, cookie: string) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields),
  });
}

async function statusOf(result: unknown): Promise<number> {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } }).init?.status ?? 200;
}

const hasSecondFactor = async (userId: number) =>
  (await database.db.select().from(staffUsers).where(eq(staffUsers.id, userId)))[0]?.totpSecret !== null;

describe("turning two-step verification off", () => {
  it("is refused with a valid code but no password, or a wrong one", async () => {
    const user = await userWithTotp();
    const withoutPassword = post(
      "/admin/account/two-factor",
      { intent: "turn-off", code: currentTotpCode(SECRET) },
      user.cookie,
    );
    expect(await statusOf(await asStaffRoute(withoutPassword, context(), twoFactorAction))).toBe(400);
    const wrongPassword = post(
      "/admin/account/two-factor",
      { intent: "turn-off", code: currentTotpCode(SECRET), password: "not my password at all" },
      user.cookie,
    );
    expect(await statusOf(await asStaffRoute(wrongPassword, context(), twoFactorAction))).toBe(400);
    expect(await hasSecondFactor(user.id)).toBe(true);
  });

  it("works with the password and a current code", async () => {
    const user = await userWithTotp();
    const request = post(
      "/admin/account/two-factor",
      { intent: "turn-off", code: currentTotpCode(SECRET), password: user.password },
      user.cookie,
    );
    expect(await statusOf(await asStaffRoute(request, context(), twoFactorAction))).toBe(200);
    expect(await hasSecondFactor(user.id)).toBe(false);
  });
});

describe("new recovery codes", () => {
  it("need the password, and replace the old ones", async () => {
    const user = await userWithTotp();
    const [oldCode = ""] = await replaceRecoveryCodes(database.db, user.id);
    const refused = post(
      "/admin/account/two-factor",
      { intent: "new-recovery-codes", password: "wrong one" },
      user.cookie,
    );
    expect(await statusOf(await asStaffRoute(refused, context(), twoFactorAction))).toBe(400);

    const accepted = post(
      "/admin/account/two-factor",
      { intent: "new-recovery-codes", password: user.password },
      user.cookie,
    );
    const result = (await asStaffRoute(accepted, context(), twoFactorAction)) as unknown as {
      data: { recoveryCodes?: string[] };
    };
    expect(result.data.recoveryCodes).toHaveLength(10);
    expect(result.data.recoveryCodes).not.toContain(oldCode);
  });
});

/** An admin's Remove two-step verification on a user's page; the answer's status. */
async function removeSecondFactorAsAdmin(adminCookie: string, userId: number): Promise<number> {
  const request = post(`/admin/staff/${userId}`, { intent: "remove-second-factor" }, adminCookie);
  return statusOf(
    await asStaffRoute(request, context(), (signedIn, signedInContext) =>
      staffUserAction(signedIn, signedInContext, String(userId)),
    ),
  );
}

describe("an admin removing a user's second factor", () => {
  it("signs that user out everywhere", async () => {
    const admin = await userWithTotp("admin");
    const user = await userWithTotp();
    await startSession(database.db, context().config, { userId: user.id, secondFactorPending: false });
    expect(await removeSecondFactorAsAdmin(admin.cookie, user.id)).toBe(200);
    expect(await hasSecondFactor(user.id)).toBe(false);
    const sessions = await database.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id));
    expect(sessions).toEqual([]);
  });
});

describe("a second factor the key cannot read (a restore without DATA_ENCRYPTION_KEY)", () => {
  it("is pointed out to an admin, who removes it, and the user signs in with the password alone", async () => {
    const admin = await userWithTotp("admin");
    const user = await addStaffUser(database.db);
    await enableTotp(database.db, LOST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
    const staffPage = () =>
      new Request(`http://localhost/admin/staff/${user.id}`, { headers: { cookie: admin.cookie } });
    const shown = await asStaffRoute(staffPage(), context(), (_request, signedInContext) =>
      loadStaffUser(signedInContext, String(user.id)),
    );
    expect(shown.user).toMatchObject({ hasSecondFactor: true, secondFactorUnreadable: true });
    expect(await removeSecondFactorAsAdmin(admin.cookie, user.id)).toBe(200);
    const signedIn = await signIn(post("/admin", { username: user.username, password: user.password }, ""), context());
    expect(signedIn).toBeInstanceOf(Response);
    expect((signedIn as Response).headers.get("location")).toBe("/admin/quick-links");
    const after = await asStaffRoute(staffPage(), context(), (_request, signedInContext) =>
      loadStaffUser(signedInContext, String(user.id)),
    );
    expect(after.user).toMatchObject({ hasSecondFactor: false, secondFactorUnreadable: false });
  });

  it("tells a user still signed in to turn it off that an admin must, rather than failing", async () => {
    const user = await addStaffUser(database.db);
    await enableTotp(database.db, LOST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
    const cookie = cookieFrom(
      await startSession(database.db, context().config, { userId: user.id, secondFactorPending: false }),
    );
    const request = post(
      "/admin/account/two-factor",
      { intent: "turn-off", code: currentTotpCode(SECRET), password: user.password },
      cookie,
    );
    const result = (await asStaffRoute(request, context(), twoFactorAction)) as unknown as {
      data: { message: string };
      init: { status: number };
    };
    expect(result.init.status).toBe(409);
    expect(result.data.message).toBe(SECOND_FACTOR_UNREADABLE_MESSAGE);
    expect(await hasSecondFactor(user.id)).toBe(true);
  });
});
