import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser, cookieFrom, currentTotpCode } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { enableTotp, replaceRecoveryCodes } from "~/server/auth/second-factor.server";
import { startSession } from "~/server/auth/sessions.server";
import { staffSessions, staffUsers } from "~/server/db/schema.server";
import { staffUserAction } from "./staff-management.server";
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

describe("an admin removing a user's second factor", () => {
  it("signs that user out everywhere", async () => {
    const admin = await userWithTotp("admin");
    const user = await userWithTotp();
    await startSession(database.db, context().config, { userId: user.id, secondFactorPending: false });
    const request = post(`/admin/staff/${user.id}`, { intent: "remove-second-factor" }, admin.cookie);
    expect(
      await statusOf(
        await asStaffRoute(request, context(), (signedIn, signedInContext) =>
          staffUserAction(signedIn, signedInContext, String(user.id)),
        ),
      ),
    ).toBe(200);
    expect(await hasSecondFactor(user.id)).toBe(false);
    const sessions = await database.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id));
    expect(sessions).toEqual([]);
  });
});
