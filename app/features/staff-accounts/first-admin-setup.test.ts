import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { cookieFrom } from "#tests/staff";

let app: AppServer;
beforeAll(async () => {
  app = await startAppServer();
});
afterAll(() => app.stop());

function setupPathFromLog(): string {
  const line = app.output.find((entry) => entry.includes("No staff account exists yet"));
  const url = /"setupUrl":"([^"]+)"/.exec(line ?? "")?.[1];
  if (!url) throw new Error(`no setup link in the log:\n${app.output.join("\n")}`);
  return new URL(url).pathname + new URL(url).search;
}

const postForm = (url: string, fields: Record<string, string>) =>
  fetch(`${app.url}${url}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

describe("the first start", () => {
  it("logs a one-time link that creates the first admin and signs them in", async () => {
    const setupPath = setupPathFromLog();
    const token = new URL(setupPath, app.url).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(await (await fetch(`${app.url}${setupPath}`)).text()).toContain("Create admin account");

    const mismatch = await postForm(setupPath, {
      token,
      username: "owner",
      password: "first admin password",
      confirmPassword: "something else entirely",
    });
    expect(mismatch.status).toBe(400);

    const created = await postForm(setupPath, {
      token,
      username: "Owner",
      displayName: "Olivia Owner",
      password: "first admin password",
      confirmPassword: "first admin password",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/admin/quick-links");
    const dashboard = await fetch(`${app.url}/admin/quick-links`, {
      headers: { cookie: cookieFrom(created.headers.get("set-cookie")) },
    });
    expect(await dashboard.text()).toContain("Signed in as <strong>Olivia Owner</strong>");

    const reused = await postForm(setupPath, {
      token,
      username: "intruder",
      password: "another long password",
      confirmPassword: "another long password",
    });
    expect(reused.status).toBe(410);
    expect(await (await fetch(`${app.url}${setupPath}`)).text()).toContain("This setup link is not valid any more");
  });

  it("refuses a made-up token", async () => {
    const response = await fetch(`${app.url}/admin/setup?token=made-up`);
    expect(await response.text()).toContain("This setup link is not valid any more");
  });
});
