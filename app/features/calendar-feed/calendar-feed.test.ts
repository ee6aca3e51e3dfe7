import nodeIcal from "node-ical";
import { describe, expect, it } from "vitest";
import { signedInAppForFile } from "#tests/signed-in-app";
import { validEstimateRequest } from "#tests/staff-request-fixture";
import { SOFT_CHECKS_SEEN_FIELD } from "~/forms/soft-checks";

const world = signedInAppForFile();

const post = (path: string, form: Record<string, string>) =>
  fetch(`${world.app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: world.cookie, origin: world.app.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });

/** Makes (or replaces) the calendar address on Your settings, as a browser without JavaScript posts it. */
async function makeAddress(): Promise<string> {
  const page = await post("/admin/account", { intent: "make-calendar-address" });
  expect(page.status).toBe(200);
  const path = /\/calendar\/[0-9a-f]{64}\.ics/.exec(await page.text())?.[0];
  if (!path) throw new Error("no calendar address on the page");
  return path;
}

describe("the calendar address, through the running app", () => {
  it("is made on Your settings, serves the staff form's appointment without a cookie, and stops once replaced", async () => {
    const settings = await fetch(`${world.app.url}/admin/account`, { headers: { cookie: world.cookie } });
    expect(await settings.text()).toContain("Make my calendar address");

    const stored = await post("/admin/quick-links/estimate-request", {
      ...validEstimateRequest,
      appointment: "2026-11-01",
      appointmentTime: "09:00",
      // A past date, kept on purpose: its warning was seen (app/forms/soft-checks.ts).
      [SOFT_CHECKS_SEEN_FIELD]: "appointment",
    });
    expect(stored.status).toBeLessThan(400);

    const first = await makeAddress();
    const feed = await fetch(`${world.app.url}${first}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(feed.headers.get("cache-control")).toBe("private, no-store");
    const events = Object.values(nodeIcal.sync.parseICS(await feed.text())).filter(
      (component) => component?.type === "VEVENT",
    );
    expect(events.map((event) => event.type === "VEVENT" && event.start.toISOString())).toEqual([
      "2026-11-01T14:00:00.000Z",
    ]);

    const replaced = await post("/admin/account", { intent: "make-calendar-address" });
    expect(await replaced.text()).toContain("The old one no longer works");
    const second = await makeAddress();
    expect((await fetch(`${world.app.url}${first}`)).status).toBe(404);
    expect((await fetch(`${world.app.url}${second}`)).status).toBe(200);
    expect((await fetch(`${world.app.url}/calendar/not-an-address.ics`)).status).toBe(404);
  }, 60_000);
});
