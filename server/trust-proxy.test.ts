import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { validEstimate } from "#tests/estimate-fixture";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";

/** One public estimate post, as a browser behind `forwardedFor` would send it through a load balancer. */
async function postEstimate(app: AppServer, forwardedFor: string): Promise<number> {
  const response = await fetch(`${app.url}/lighting`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: app.url,
      "x-forwarded-for": forwardedFor,
    },
    body: new URLSearchParams(validEstimate),
  });
  await response.body?.cancel();
  return response.status;
}

async function startBehind(env: Record<string, string>) {
  const database = await createTestDatabase();
  const app = await startAppServer({ env: { DATABASE_URL: database.url, PUBLIC_FORM_RATE_LIMIT: "1", ...env } });
  return { database, app };
}

describe("behind a load balancer (TRUST_PROXY=1)", () => {
  let database: TestDatabase;
  let app: AppServer;
  beforeAll(async () => {
    ({ database, app } = await startBehind({ TRUST_PROXY: "1" }));
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it("counts the public form limit per visitor, not for the balancer's one address", async () => {
    expect(await postEstimate(app, "203.0.113.1")).toBe(200);
    expect(await postEstimate(app, "203.0.113.2")).toBe(200);
    expect(await postEstimate(app, "203.0.113.1")).toBe(429);
  });

  it("counts an IPv6 visitor by its /64, so one network cannot dodge the limit by changing address", async () => {
    expect(await postEstimate(app, "2001:db8:1:2::1")).toBe(200);
    expect(await postEstimate(app, "2001:db8:1:2:ffff::9")).toBe(429);
    expect(await postEstimate(app, "2001:db8:1:3::1")).toBe(200);
  });

  it("locks a guesser's address out of an account, not the office behind the same balancer", async () => {
    const user = await addStaffUser(database.db);
    const signIn = async (forwardedFor: string, password: string) => {
      const response = await fetch(`${app.url}/admin`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: app.url,
          "x-forwarded-for": forwardedFor,
        },
        body: new URLSearchParams({ username: user.username, password }),
      });
      await response.body?.cancel();
      return response.status;
    };
    const guesses = [];
    for (let attempt = 0; attempt < 6; attempt++) guesses.push(await signIn("198.51.100.66", "a wrong guess!!"));
    expect(guesses.slice(-2)).toEqual([429, 429]);
    expect(await signIn("203.0.113.80", user.password)).toBe(302);
  });

  it("takes the address the balancer saw, not one the visitor wrote in front of it", async () => {
    expect(await postEstimate(app, "198.51.100.7, 203.0.113.50")).toBe(200);
    expect(await postEstimate(app, "198.51.100.8, 203.0.113.50")).toBe(429);
  });
});

describe("with TRUST_PROXY unset", () => {
  let database: TestDatabase;
  let app: AppServer;
  beforeAll(async () => {
    ({ database, app } = await startBehind({}));
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it("ignores X-Forwarded-For, so a visitor cannot pick a new address per post", async () => {
    expect(await postEstimate(app, "203.0.113.1")).toBe(200);
    expect(await postEstimate(app, "203.0.113.2")).toBe(429);
  });
});
