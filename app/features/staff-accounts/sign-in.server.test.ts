import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOST_DATA_ENCRYPTION_KEY, loadContextFor, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser, cookieFrom, currentTotpCode } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { failureDelayMs, LOGIN_THROTTLE } from "~/services/auth/login-throttle.server";
import { enableTotp, replaceRecoveryCodes } from "~/services/auth/second-factor.server";
import { findSession } from "~/services/auth/sessions.server";
import { setStaffUserActive } from "~/services/auth/staff-users.server";
import { loginThrottles, staffSessions, staffUsers } from "~/services/db/schema.server";
import { INVALID_CODE_MESSAGE, INVALID_CREDENTIALS_MESSAGE, SECOND_FACTOR_UNREADABLE_MESSAGE } from "./schemas";
import { signIn } from "./sign-in.server";
import { verifySecondFactor } from "./verify-second-factor.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

let address = 0;
/** Each test signs in from its own address, so the per-address count of one test never locks another. */
const context = () => loadContextFor(database.db, {}, `198.51.100.${++address}`);

function post(url: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** What an action answered: a redirect Response, or React Router's data() with a status. */
async function answer(result: unknown) {
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("location"),
      cookie: result.headers.get("set-cookie"),
    };
  }
  const { data, init } = result as { data: { message?: string }; init?: { status?: number } };
  return { status: init?.status ?? 200, message: data.message };
}

describe("signing in", () => {
  it("starts a session on the right password and goes to the page asked for", async () => {
    const user = await addStaffUser(database.db);
    const ctx = context();
    const result = await answer(
      await signIn(
        post("/admin", { username: user.username, password: user.password, redirectTo: "/admin/staff" }),
        ctx,
      ),
    );
    expect(result).toMatchObject({ status: 302, location: "/admin/staff" });
    const session = await findSession(
      ctx.db,
      ctx.config,
      new Request("http://localhost/", { headers: { cookie: cookieFrom(result.cookie) } }),
    );
    expect(session?.user.username).toBe(user.username);
    expect(session?.secondFactorPending).toBe(false);
    const [stored] = await database.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
    expect(stored?.lastSignedInAt).toBeInstanceOf(Date);
  });

  it("takes the username in any case and ignores surrounding spaces", async () => {
    const user = await addStaffUser(database.db);
    const result = await answer(
      await signIn(
        post("/admin", { username: ` ${user.username.toUpperCase()} `, password: user.password }),
        context(),
      ),
    );
    expect(result).toMatchObject({ status: 302, location: "/admin/quick-links" });
  });

  it.each([
    ["//evil.example/phish"],
    ["https://evil.example/"],
    ["/\\evil.example"],
    ["javascript:alert(1)"],
    ["/.//evil.example"],
    ["/a/..//evil.example"],
  ])("sends an off-site redirectTo %j to the dashboard instead", async (redirectTo) => {
    const user = await addStaffUser(database.db);
    const result = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password, redirectTo }), context()),
    );
    expect(result.location).toBe("/admin/quick-links");
  });

  it("gives one message for an unknown user, a wrong password and a deactivated account", async () => {
    const user = await addStaffUser(database.db);
    const deactivated = await addStaffUser(database.db);
    await setStaffUserActive(database.db, deactivated.id, false);
    const attempts = [
      { username: "nobody-by-this-name", password: user.password },
      { username: user.username, password: "not the password at all" },
      { username: deactivated.username, password: deactivated.password },
    ];
    for (const fields of attempts) {
      expect(await answer(await signIn(post("/admin", fields), context()))).toEqual({
        status: 401,
        message: INVALID_CREDENTIALS_MESSAGE,
      });
    }
  });

  it("locks the account from the address that failed five times, even against the right password, without saying whether it was right", async () => {
    const user = await addStaffUser(database.db);
    const ctx = context();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxPairFailures; attempt++) {
      const result = await answer(
        await signIn(post("/admin", { username: user.username, password: "wrong password!!" }), ctx),
      );
      statuses.push(result.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password }), ctx),
    );
    expect(locked.status).toBe(429);
    expect(locked.message).toMatch(/^Too many failed sign-in attempts\. Sign-in is locked for 15 minutes/);

    // When the lock has run out, the right password works again.
    await database.db
      .update(loginThrottles)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(loginThrottles.username, user.username));
    const after = await answer(await signIn(post("/admin", { username: user.username, password: user.password }), ctx));
    expect(after.status).toBe(302);
  });

  it("does not let a stranger lock the office out: the account still opens from another address", async () => {
    const user = await addStaffUser(database.db);
    const stranger = context();
    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxPairFailures + 2; attempt++) {
      await signIn(post("/admin", { username: user.username, password: "wrong password!!" }), stranger);
    }
    const office = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password }), context()),
    );
    expect(office.status).toBe(302);
  });

  it("slows every address down on an account that keeps failing, without locking it", async () => {
    const user = await addStaffUser(database.db);
    for (let attempt = 0; attempt < 3; attempt++) {
      await signIn(post("/admin", { username: user.username, password: "wrong password!!" }), context());
    }
    const [accountCount] = await database.db
      .select({ failures: loginThrottles.failures, lockedUntil: loginThrottles.lockedUntil })
      .from(loginThrottles)
      .where(eq(loginThrottles.key, `account:${user.username}`));
    expect(accountCount).toEqual({ failures: 3, lockedUntil: null });
    expect(failureDelayMs(accountCount?.failures ?? 0)).toBeGreaterThan(failureDelayMs(2));
  });

  it("locks unknown usernames the same way, so a lock does not tell which usernames exist", async () => {
    const ctx = context();
    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxPairFailures; attempt++) {
      await signIn(post("/admin", { username: "ghost", password: "wrong password!!" }), ctx);
    }
    const result = await answer(await signIn(post("/admin", { username: "ghost", password: "wrong password!!" }), ctx));
    expect(result.status).toBe(429);
  });

  it("checks no more passwords than the limit allows when the guesses arrive all at once", async () => {
    const user = await addStaffUser(database.db);
    const ctx = context();
    const results = await Promise.all(
      Array.from({ length: 11 }, async () =>
        answer(await signIn(post("/admin", { username: user.username, password: "wrong password!!" }), ctx)),
      ),
    );
    const checked = results.filter((result) => result.status === 401).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_THROTTLE.maxPairFailures);
    expect(results.every((result) => result.status === 401 || result.status === 429)).toBe(true);
    const locked = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password }), ctx),
    );
    expect(locked.status).toBe(429);
  });

  it("counts failures per address across accounts", async () => {
    const ctx = context();
    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxAddressFailures; attempt++) {
      await signIn(post("/admin", { username: `guess-${attempt}`, password: "wrong password!!" }), ctx);
    }
    const user = await addStaffUser(database.db);
    const result = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password }), ctx),
    );
    expect(result.status).toBe(429);
  }, 120_000);

  it("deletes counts and locks that ended over a day ago when someone signs in", async () => {
    const user = await addStaffUser(database.db);
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await database.db.insert(loginThrottles).values([
      { key: "account:long-gone", failures: 3, windowStartedAt: longAgo },
      { key: "address:192.0.2.250", failures: 30, windowStartedAt: longAgo, lockedUntil: longAgo },
    ]);
    await signIn(post("/admin", { username: user.username, password: user.password }), context());
    const left = await database.db
      .select({ key: loginThrottles.key })
      .from(loginThrottles)
      .where(inArray(loginThrottles.key, ["account:long-gone", "address:192.0.2.250"]));
    expect(left).toEqual([]);
  });

  it("answers a missing field with a message and a body that is not a form with 400", async () => {
    expect(await answer(await signIn(post("/admin", { username: "someone" }), context()))).toMatchObject({
      status: 400,
    });
    const notAForm = new Request("http://localhost/admin", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expect(signIn(notAForm, context())).rejects.toMatchObject({ init: { status: 400 } });
  });
});

describe("the second factor", () => {
  async function userWithTotp() {
    const user = await addStaffUser(database.db);
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, user.id, secret, null);
    return { ...user, secret };
  }

  it("asks for a code after the password, and only a valid code completes the sign-in", async () => {
    const user = await userWithTotp();
    const ctx = context();
    const first = await answer(
      await signIn(
        post("/admin", { username: user.username, password: user.password, redirectTo: "/admin/staff" }),
        ctx,
      ),
    );
    expect(first).toMatchObject({ status: 302, location: "/admin/verify?redirectTo=%2Fadmin%2Fstaff" });
    const pendingCookie = cookieFrom(first.cookie);
    const pending = await findSession(
      ctx.db,
      ctx.config,
      new Request("http://localhost/", { headers: { cookie: pendingCookie } }),
    );
    expect(pending?.secondFactorPending).toBe(true);

    const wrong = await answer(await verifySecondFactor(post("/admin/verify", { code: "000000" }, pendingCookie), ctx));
    expect(wrong).toEqual({ status: 401, message: INVALID_CODE_MESSAGE });

    const code = currentTotpCode(user.secret);
    const done = await answer(
      await verifySecondFactor(post("/admin/verify", { code, redirectTo: "/admin/staff" }, pendingCookie), ctx),
    );
    expect(done).toMatchObject({ status: 302, location: "/admin/staff" });
    expect(cookieFrom(done.cookie)).not.toBe(pendingCookie);
    const sessions = await database.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id));
    expect(sessions.map((session) => session.secondFactorPending)).toEqual([false]);

    // The same code cannot be used twice.
    const again = await answer(await signIn(post("/admin", { username: user.username, password: user.password }), ctx));
    const replay = await answer(
      await verifySecondFactor(post("/admin/verify", { code }, cookieFrom(again.cookie)), ctx),
    );
    expect(replay.status).toBe(401);
  });

  it("signs in one pending session with a code, however many send it at once", async () => {
    const user = await userWithTotp();
    const ctx = context();
    const pendingCookies = [];
    for (let session = 0; session < 4; session++) {
      const first = await answer(
        await signIn(post("/admin", { username: user.username, password: user.password }), ctx),
      );
      pendingCookies.push(cookieFrom(first.cookie));
    }
    const code = currentTotpCode(user.secret);
    const results = await Promise.all(
      pendingCookies.map(async (cookie) =>
        answer(await verifySecondFactor(post("/admin/verify", { code }, cookie), ctx)),
      ),
    );
    expect(results.filter((result) => result.status === 302)).toHaveLength(1);
  });

  it("accepts each recovery code once", async () => {
    const user = await userWithTotp();
    const [recoveryCode] = await replaceRecoveryCodes(database.db, user.id);
    const ctx = context();
    const signInOnce = async () =>
      cookieFrom(
        (await answer(await signIn(post("/admin", { username: user.username, password: user.password }), ctx))).cookie,
      );
    const used = await answer(
      await verifySecondFactor(
        post("/admin/verify", { code: ` ${recoveryCode?.toUpperCase()} ` }, await signInOnce()),
        ctx,
      ),
    );
    expect(used).toMatchObject({ status: 302, location: "/admin/quick-links" });
    const reused = await answer(
      await verifySecondFactor(post("/admin/verify", { code: recoveryCode ?? "" }, await signInOnce()), ctx),
    );
    expect(reused.status).toBe(401);
  });

  it("does not let a half-signed-in session verify without a pending session", async () => {
    await expect(verifySecondFactor(post("/admin/verify", { code: "123456" }), context())).rejects.toMatchObject({
      status: 302,
    });
  });
});

describe("a second factor the key cannot read (a restore without DATA_ENCRYPTION_KEY)", () => {
  it("is answered plainly at the code step, never with a 500 nor a lock, and a recovery code still signs in", async () => {
    const user = await addStaffUser(database.db);
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    await enableTotp(database.db, LOST_DATA_ENCRYPTION_KEY, user.id, secret, null);
    const [recoveryCode] = await replaceRecoveryCodes(database.db, user.id);
    const ctx = context();
    const signedIn = await answer(
      await signIn(post("/admin", { username: user.username, password: user.password }), ctx),
    );
    expect(signedIn).toMatchObject({ status: 302, location: "/admin/verify?redirectTo=%2Fadmin%2Fquick-links" });
    const pendingCookie = cookieFrom(signedIn.cookie);
    for (let attempt = 0; attempt <= LOGIN_THROTTLE.maxPairFailures; attempt++) {
      const code = currentTotpCode(secret);
      expect(await answer(await verifySecondFactor(post("/admin/verify", { code }, pendingCookie), ctx))).toEqual({
        status: 409,
        message: SECOND_FACTOR_UNREADABLE_MESSAGE,
      });
    }
    // Recovery codes are stored hashed, not sealed with the key.
    expect(
      await answer(await verifySecondFactor(post("/admin/verify", { code: recoveryCode ?? "" }, pendingCookie), ctx)),
    ).toMatchObject({ status: 302, location: "/admin/quick-links" });
  });
});
