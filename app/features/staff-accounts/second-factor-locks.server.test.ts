import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { cookieFrom, currentTotpCode, STAFF_PASSWORD } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { LOGIN_THROTTLE } from "~/services/auth/login-throttle.server";
import { enableTotp, replaceRecoveryCodes } from "~/services/auth/second-factor.server";
import { CODES_PER_PENDING_SESSION } from "~/services/auth/sessions.server";
import { createStaffUser } from "~/services/auth/staff-users.server";
import { loginThrottles, type StaffRole, staffNotices, staffSessions } from "~/services/db/schema.server";
import {
  CODES_USED_UP_MESSAGE,
  codesLockedMessage,
  INVALID_CODE_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
} from "./schemas";
import { redirectIfSignedIn, signIn } from "./sign-in.server";
import { verifySecondFactor } from "./verify-second-factor.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
let accounts = 0;

/** An account with two-step verification, named by an email address (so it can be told of a lock). */
async function userWithTotp(role: StaffRole = "staff") {
  accounts += 1;
  const user = await createStaffUser(database.db, {
    username: `${role}-${accounts}-${process.pid}@example.com`,
    displayName: `Person ${accounts}`,
    password: STAFF_PASSWORD,
    role,
  });
  await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
  return user;
}

/** A six-digit code that is not the one the app shows now. */
const wrongCode = () => String((Number(currentTotpCode(SECRET)) + 500_000) % 1_000_000).padStart(6, "0");

const contextFrom = (address: string) => loadContextFor(database.db, {}, address);

function post(url: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** What an action answered (or threw, as a redirect): its status, and its message or where it sends. */
async function answer(action: Promise<unknown>) {
  const result = await action.catch((thrown: unknown) => thrown);
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("location"),
      cookie: result.headers.get("set-cookie"),
    };
  }
  const { data, init } = result as { data: { message?: string }; init?: ResponseInit };
  return {
    status: init?.status ?? 200,
    message: data.message,
    cookie: new Headers(init?.headers).get("set-cookie"),
  };
}

/** The right password from `address`: the half-way session's cookie. */
async function passwordStep(username: string, address: string) {
  const result = await answer(signIn(post("/admin", { username, password: STAFF_PASSWORD }), contextFrom(address)));
  expect(result.status).toBe(302);
  return cookieFrom(result.cookie);
}

const codeStep = (cookie: string, code: string, address: string) =>
  answer(verifySecondFactor(post("/admin/verify", { code }, cookie), contextFrom(address)));

describe("the code step, locked for the account whatever the address", () => {
  it("locks after five wrong codes from five addresses, and then refuses even the right code from a new one", async () => {
    const user = await userWithTotp();
    const statuses: number[] = [];
    for (let address = 1; address <= 8; address++) {
      const cookie = await passwordStep(user.username, `198.51.100.${address}`);
      statuses.push((await codeStep(cookie, wrongCode(), `198.51.100.${address}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);

    // The password step is not locked: the right password still reaches the code step, which says why it refuses.
    const cookie = await passwordStep(user.username, "198.51.100.99");
    expect(await codeStep(cookie, currentTotpCode(SECRET), "198.51.100.99")).toMatchObject({
      status: 429,
      message: codesLockedMessage(15),
    });
  });

  it("holds against rounds of 'right password, four wrong codes' from one address: a right password clears nothing", async () => {
    const user = await userWithTotp();
    const judged: number[] = [];
    for (let round = 0; round < 6; round++) {
      const cookie = await passwordStep(user.username, "203.0.113.7");
      for (let code = 0; code < 4; code++) judged.push((await codeStep(cookie, wrongCode(), "203.0.113.7")).status);
    }
    // On main every one of the 24 was judged (401); now the fifth wrong code locks the code step.
    expect(judged.filter((status) => status === 401).length).toBeLessThan(LOGIN_THROTTLE.maxAccountCodeFailures);
    const cookie = await passwordStep(user.username, "203.0.113.7");
    expect((await codeStep(cookie, currentTotpCode(SECRET), "203.0.113.7")).status).toBe(429);
  }, 120_000);

  it("still takes a recovery code while the authenticator codes are locked", async () => {
    const user = await userWithTotp();
    const [recoveryCode = ""] = await replaceRecoveryCodes(database.db, user.id);
    for (let address = 1; address <= LOGIN_THROTTLE.maxAccountCodeFailures; address++) {
      const cookie = await passwordStep(user.username, `192.0.2.${address}`);
      await codeStep(cookie, wrongCode(), `192.0.2.${address}`);
    }
    const cookie = await passwordStep(user.username, "192.0.2.50");
    expect((await codeStep(cookie, currentTotpCode(SECRET), "192.0.2.50")).status).toBe(429);
    expect(await codeStep(cookie, recoveryCode, "192.0.2.50")).toMatchObject({
      status: 302,
      location: "/admin/quick-links",
    });
  });
});

describe("the half-way session", () => {
  it("ends at the third wrong code: the password must be entered again", async () => {
    const user = await userWithTotp();
    const cookie = await passwordStep(user.username, "198.51.100.200");
    expect(await codeStep(cookie, wrongCode(), "198.51.100.200")).toMatchObject({
      status: 401,
      message: INVALID_CODE_MESSAGE,
    });
    expect((await codeStep(cookie, wrongCode(), "198.51.100.200")).status).toBe(401);
    const third = await codeStep(cookie, wrongCode(), "198.51.100.200");
    expect(third).toMatchObject({
      status: 302,
      location: "/admin?ended=wrong-codes&redirectTo=%2Fadmin%2Fquick-links",
    });
    expect(third.cookie).toMatch(/Max-Age=0/);
    const signInPage = new Request(`http://localhost${third.location}`);
    expect(await redirectIfSignedIn(signInPage, contextFrom("198.51.100.200"))).toEqual({
      notice: CODES_USED_UP_MESSAGE,
    });
    expect(await database.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id))).toEqual([]);

    // Even the right code does nothing with that session now: it goes back to the password.
    expect(await codeStep(cookie, currentTotpCode(SECRET), "198.51.100.200")).toMatchObject({
      status: 302,
      location: "/admin",
    });
    const again = await passwordStep(user.username, "198.51.100.200");
    expect(await codeStep(again, currentTotpCode(SECRET), "198.51.100.200")).toMatchObject({ status: 302 });
  });

  it("checks no more than three codes when they arrive all at once", async () => {
    const user = await userWithTotp();
    const cookie = await passwordStep(user.username, "198.51.100.201");
    const results = await Promise.all(Array.from({ length: 8 }, () => codeStep(cookie, wrongCode(), "198.51.100.201")));
    expect(results.filter((result) => result.message === INVALID_CODE_MESSAGE).length).toBeLessThanOrEqual(2);
    expect(results.every((result) => result.status === 401 || result.location?.startsWith("/admin"))).toBe(true);
    const [judged] = await database.db
      .select({ failures: loginThrottles.failures })
      .from(loginThrottles)
      .where(eq(loginThrottles.key, `code:${user.username}`));
    expect(judged?.failures).toBeLessThanOrEqual(CODES_PER_PENDING_SESSION);
  });
});

describe("IPv6 addresses", () => {
  it("share the sign-in locks across a /48: a network cannot dodge them by changing /64", async () => {
    const user = await userWithTotp();
    for (let subnet = 1; subnet <= LOGIN_THROTTLE.maxPairFailures; subnet++) {
      const result = await answer(
        signIn(
          post("/admin", { username: user.username, password: "not the password" }),
          contextFrom(`2001:db8:77:${subnet}::1`),
        ),
      );
      expect(result.message).toMatch(subnet < LOGIN_THROTTLE.maxPairFailures ? INVALID_CREDENTIALS_MESSAGE : /locked/);
    }
    const sameNetwork = await answer(
      signIn(post("/admin", { username: user.username, password: STAFF_PASSWORD }), contextFrom("2001:db8:77:ff::9")),
    );
    expect(sameNetwork.status).toBe(429);
    const otherNetwork = await answer(
      signIn(post("/admin", { username: user.username, password: STAFF_PASSWORD }), contextFrom("2001:db8:78::9")),
    );
    expect(otherNetwork.status).toBe(302);
  });
});

describe("the notice of a lock", () => {
  it("is stored for the person and the admins (SMTP unset), saying from how many addresses, never which", async () => {
    const admin = await userWithTotp("admin");
    const colleague = await userWithTotp();
    const user = await userWithTotp();
    const addresses = ["198.51.100.150", "198.51.100.151", "2001:db8:99:1::5", "198.51.100.150", "198.51.100.151"];
    for (const address of addresses) {
      const cookie = await passwordStep(user.username, address);
      await codeStep(cookie, wrongCode(), address);
    }
    const notices = await database.db.select().from(staffNotices);
    const recipients = notices.map((notice) => notice.recipient);
    expect(recipients).toContain(user.username);
    expect(recipients).toContain(admin.username);
    expect(recipients).not.toContain(colleague.username);
    const notice = notices.find((row) => row.recipient === user.username);
    expect(notice?.subject).toBe(`Two-step verification locked for ${user.displayName}`);
    expect(notice?.text).toContain("5 wrong two-step verification codes within 15 minutes, from 3 different addresses");
    expect(notice?.text).toContain("A recovery code still signs in.");
    expect(notice?.text).not.toMatch(/198\.51|2001:db8/);
    expect(notice?.sentAt).toBeNull();

    // A sixth wrong code while locked is no new lock, and no new email.
    const cookie = await passwordStep(user.username, "198.51.100.152");
    await codeStep(cookie, wrongCode(), "198.51.100.152");
    expect(await database.db.select().from(staffNotices)).toHaveLength(notices.length);
  });
});
