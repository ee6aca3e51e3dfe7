import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { type ServiceTitanStandIn, serviceTitanEnv, startServiceTitanStandIn } from "#tests/servicetitan-stand-in";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { submissions } from "~/services/db/schema.server";

const SCREEN = "/admin/quick-links/team-communication";

let database: TestDatabase;
let standIn: ServiceTitanStandIn;
let app: AppServer;
let cookie: string;

beforeAll(async () => {
  [database, standIn] = await Promise.all([createTestDatabase(), startServiceTitanStandIn({ pageSize: 2 })]);
  standIn.technicians = [
    { id: 11, name: "Ana Ruiz", email: "ana.ruiz@example.com", phoneNumber: "(803) 555-0131", active: true },
    { id: 12, fullName: "Ben Okafor", email: null, phoneNumber: "803-555-0132", active: true },
    { id: 13, name: "Cy Vance", email: "cy.vance@example.com", phoneNumber: null, active: true },
    { id: 14, name: "Dee Gone", email: "dee@example.com", phoneNumber: null, active: false },
  ];
  app = await startAppServer({ env: { DATABASE_URL: database.url, ...serviceTitanEnv(standIn) } });
  const staff = await addStaffUser(database.db, "staff");
  cookie = await signInOverHttp(app.url, staff.username, staff.password);
});
afterAll(async () => {
  await app.stop();
  await Promise.all([standIn.close(), database.drop()]);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${url}`, { redirect: "manual", headers });

/** Every secret of the ServiceTitan connection: none may be in anything the browser is sent. */
function secrets(): string[] {
  return [standIn.clientSecret, standIn.clientId, standIn.appKey, ...standIn.issuedTokens];
}

describe("Team Communication over HTTP", () => {
  it("gives a signed-out visitor nothing: not the screen, not the technicians, not the directory, and sends nothing", async () => {
    const before = standIn.requests.length;
    for (const url of [SCREEN, `${SCREEN}/history`, "/admin/staff-directory"]) {
      for (const target of [url, `${url}.data`]) {
        const response = await get(target);
        const body = await response.text();
        if (target.endsWith(".data")) expect(body, target).toContain("SingleFetchRedirect");
        else expect(response.headers.get("location"), target).toMatch(/^\/admin\?redirectTo=/);
        expect(body, target).not.toContain("Ana Ruiz");
      }
    }
    const post = await fetch(`${app.url}${SCREEN}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ recipients: "11", subject: "Hi", body: "Hello" }),
    });
    expect(post.status).toBe(302);
    expect(await database.db.select().from(submissions)).toHaveLength(0);
    // Not even a token was asked for on a signed-out visitor's behalf.
    expect(standIn.requests.length).toBe(before);
  });

  it("serves signed-in staff the active technicians by name and reachability only, never a credential or token", async () => {
    const answers: string[] = [];
    for (const url of [SCREEN, `${SCREEN}.data`]) {
      const response = await get(url, { cookie });
      expect(response.status, url).toBe(200);
      answers.push(await response.text());
    }
    expect(standIn.issuedTokens.length).toBeGreaterThan(0);
    for (const answer of answers) {
      for (const secret of secrets()) expect(answer).not.toContain(secret);
      expect(answer).not.toContain("ana.ruiz@example.com");
      expect(answer).not.toContain("555-0131");
    }
    // The screen comes with its technicians, so it works without JavaScript: the active ones, with how each
    // can be reached, as the checkboxes a person ticks.
    const screen = answers[0] ?? "";
    for (const [id, name, reach] of [
      [11, "Ana Ruiz", "email and text"],
      [12, "Ben Okafor", "text only"],
      [13, "Cy Vance", "email only"],
    ] as const) {
      expect(screen).toContain(`name="recipients" value="${id}"`);
      expect(screen).toContain(name);
      expect(screen).toContain(reach);
    }
    expect(screen).not.toContain("Dee Gone");
  });

  it("sends a message to ServiceTitan technicians and answers with its reference, and no secret", async () => {
    const response = await fetch(`${app.url}${SCREEN}.data`, {
      method: "POST",
      headers: { origin: app.url, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["recipients", "11"],
        ["recipients", "12"],
        ["subject", "Yard at 6"],
        ["body", "Bring the generator."],
      ]),
    });
    const answer = await response.text();
    expect(answer).toMatch(/MSG-[0-9A-Z]{6}/);
    for (const secret of secrets()) expect(answer).not.toContain(secret);
    const [stored] = await database.db.select().from(submissions);
    expect(stored?.payload).toMatchObject({
      recipients: [
        { id: 11, name: "Ana Ruiz", email: "ana.ruiz@example.com", phoneNumber: "+18035550131" },
        { id: 12, name: "Ben Okafor", email: null, phoneNumber: "+18035550132" },
      ],
    });
  });

  it("ships no ServiceTitan address or header name in the browser's JavaScript", async () => {
    const assetsDir = path.join(projectRoot, "build/client/assets");
    const files = (await readdir(assetsDir)).filter((file) => file.endsWith(".js"));
    for (const file of files) {
      const source = await readFile(path.join(assetsDir, file), "utf8");
      expect(source, file).not.toContain("ST-App-Key");
      expect(source, file).not.toContain("connect/token");
      expect(source, file).not.toContain("SERVICETITAN_CLIENT_SECRET");
    }
  });
});
