import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { type SmtpReceiver, startSmtpReceiver } from "#tests/smtp-receiver";
import { cookieFrom, currentTotpCode, STAFF_PASSWORD } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { enableTotp } from "~/services/auth/second-factor.server";
import { createStaffUser } from "~/services/auth/staff-users.server";

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/**
 * The built app behind a load balancer (TRUST_PROXY=1), each request from the address X-Forwarded-For names, and
 * mailing through a loopback SMTP server: what someone holding a phished password meets when guessing codes.
 */
describe("guessing a second factor from many addresses", () => {
  let database: TestDatabase;
  let smtp: SmtpReceiver;
  let app: AppServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpReceiver();
    app = await startAppServer({
      env: {
        DATABASE_URL: database.url,
        TRUST_PROXY: "1",
        SMTP_URL: smtp.smtpUrl,
        DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app.stop();
    await smtp.close();
    await database.drop();
  });

  async function post(path: string, from: string, fields: Record<string, string>, cookie?: string) {
    const response = await fetch(`${app.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: app.url,
        "x-forwarded-for": from,
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields),
    });
    return { status: response.status, cookie: response.headers.get("set-cookie"), body: await response.text() };
  }

  it("judges at most five of 40 wrong codes from 40 addresses, then refuses the right code, and tells the person and the admins", async () => {
    const admin = await createStaffUser(database.db, {
      username: "owner@example.com",
      displayName: "Olivia Owner",
      password: STAFF_PASSWORD,
      role: "admin",
    });
    const user = await createStaffUser(database.db, {
      username: "dana@example.com",
      displayName: "Dana Reyes",
      password: STAFF_PASSWORD,
      role: "staff",
    });
    await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, user.id, SECRET, null);
    const wrongCode = String((Number(currentTotpCode(SECRET)) + 500_000) % 1_000_000).padStart(6, "0");

    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const from = `203.0.113.${index + 1}`;
        const password = await post("/admin", from, { username: user.username, password: STAFF_PASSWORD });
        expect(password.status).toBe(302);
        return post("/admin/verify", from, { code: wrongCode }, cookieFrom(password.cookie));
      }),
    );
    const judged = answers.filter((answer) => answer.status === 401);
    expect(judged.length).toBeLessThan(5);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(Date.now() - started).toBeLessThan(60_000);

    const rightPassword = await post("/admin", "198.51.100.9", { username: user.username, password: STAFF_PASSWORD });
    expect(rightPassword.status).toBe(302);
    const rightCode = await post(
      "/admin/verify",
      "198.51.100.9",
      { code: currentTotpCode(SECRET) },
      cookieFrom(rightPassword.cookie),
    );
    expect(rightCode.status).toBe(429);
    expect(rightCode.body).toContain("Too many wrong codes have been entered for this account.");

    const emails = await smtp.waitForMessages(2, 30_000);
    expect(emails.flatMap((email) => email.envelope.rcptTo).sort()).toEqual([admin.username, user.username].sort());
    for (const email of emails) {
      const text = email.raw.replace(/=\r?\n/g, "");
      expect(email.subject).toBe("Two-step verification locked for Dana Reyes");
      expect(text).toContain("then 5 wrong two-step verification codes within 15 minutes, from 5 different addresses.");
      expect(text).not.toContain("203.0.113.");
    }
  }, 90_000);
});
