import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { postEstimate } from "#tests/estimate-post";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { deliveries, submissions } from "~/services/db/schema.server";

const ON_CALL = "+18035550180";

let database: TestDatabase;
let twilio: WebhookReceiver;
let app: AppServer;
let staffCookie: string;
let adminCookie: string;

beforeAll(async () => {
  [database, twilio] = await Promise.all([createTestDatabase(), startWebhookReceiver()]);
  app = await startAppServer({
    env: {
      DATABASE_URL: database.url,
      TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
      TWILIO_AUTH_TOKEN: "twilio-auth-token-for-tests",
      TWILIO_FROM: "+18035550100",
      TWILIO_API_URL: twilio.url,
      NEW_LEAD_SMS_TO: ON_CALL,
      DELIVERY_RETRY_SCHEDULE: "0",
      TEXTS_PER_NUMBER_PER_DAY: "4",
    },
  });
  const [staff, admin] = [await addStaffUser(database.db, "staff"), await addStaffUser(database.db, "admin")];
  staffCookie = await signInOverHttp(app.url, staff.username, staff.password);
  adminCookie = await signInOverHttp(app.url, admin.username, admin.password);
});
afterAll(async () => {
  await app.stop();
  await twilio.close();
  await database.drop();
});

const textsToOnCall = () =>
  twilio.requests.filter((request) => new URLSearchParams(request.body).get("To") === ON_CALL).length;

/** A lead from the public form, once its on-call text has ended: its id and that text's delivery. */
async function leadWithItsText(comments: string) {
  // Other words each time: the same values from one address within ten minutes are one lead.
  const { reference } = await postEstimate(`${app.url}/learnmore`, { comments });
  const [lead] = await database.db
    .select()
    .from(submissions)
    .where(eq(submissions.reference, reference ?? ""));
  if (!lead) throw new Error(`no lead ${reference}`);
  const text = await waitFor("the on-call text to end", async () => {
    const [row] = await database.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.submissionId, lead.id), eq(deliveries.channel, "sms")));
    return row && (row.status === "delivered" || row.status === "failed") && row;
  });
  return { id: lead.id, text };
}

/** Every send of the lead's text has ended: none waits or is being sent. */
const sendsEnded = (submissionId: number) => async () => {
  const rows = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, submissionId));
  return rows.every((row) => row.status === "delivered" || row.status === "failed");
};

/** The lead's page as a browser without JavaScript posts it: its status and the page it answers with. */
async function postReplay(cookie: string, leadId: number, fields: Record<string, string>) {
  const response = await fetch(`${app.url}/admin/inbox/${leadId}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "replay", ...fields }),
  });
  return { status: response.status, page: await response.text() };
}

const leadPage = async (cookie: string, leadId: number) =>
  (await fetch(`${app.url}/admin/inbox/${leadId}`, { headers: { cookie } })).text();

describe("replaying a lead's on-call text from its page", () => {
  it("sends it at most once more in a day, however often it is asked: by an admin who confirms; a staff member gets 403", async () => {
    const lead = await leadWithItsText("The first lead");
    expect(lead.text.status).toBe("delivered");
    expect(textsToOnCall()).toBe(1);
    const deliveryId = String(lead.text.id);

    // A staff member is offered no way to send a delivered text again, and a post of their own is refused.
    expect(await leadPage(staffCookie, lead.id)).not.toMatch(/>Replay<|Send again/);
    const forged = await postReplay(staffCookie, lead.id, { deliveryId, confirmed: "yes" });
    expect(forged.status).toBe(403);
    expect(forged.page).toContain("This was delivered, so only an admin can send it again. Nothing was sent.");

    // An admin is asked to confirm first; a post without it sends nothing.
    expect(await leadPage(adminCookie, lead.id)).toContain("Send again...");
    const unconfirmed = await postReplay(adminCookie, lead.id, { deliveryId });
    expect(unconfirmed.status).toBe(400);

    const statuses: number[] = [];
    for (let replay = 0; replay < 30; replay++) {
      const { status } = await postReplay(adminCookie, lead.id, { deliveryId, confirmed: "yes" });
      statuses.push(status);
      // As a person would: the next press after the last one's text has gone.
      await waitFor("the replay's text to end", sendsEnded(lead.id));
    }
    expect(statuses).toEqual([200, ...Array(29).fill(409)]);
    expect(textsToOnCall()).toBe(2);
    expect(await leadPage(adminCookie, lead.id)).toMatch(/It can be sent again after [A-Z][a-z]{2} \d+, \d{4}/);
    const sends = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.webhookId, lead.text.webhookId))
      .orderBy(asc(deliveries.id));
    expect(sends.map((send) => [send.status, send.replayedById !== null])).toEqual([
      ["delivered", false],
      ["delivered", true],
    ]);
  });

  it("holds the on-call phone to TEXTS_PER_NUMBER_PER_DAY: the lead past it is stored and says why its text did not go", async () => {
    const before = textsToOnCall();
    const leads = [];
    for (let lead = before; lead <= 4; lead++) leads.push(await leadWithItsText(`Lead ${lead + 1}`));
    expect(textsToOnCall()).toBe(4);
    const last = leads.at(-1);
    expect(last?.text).toMatchObject({ status: "failed", attemptCount: 1 });
    const page = await leadPage(staffCookie, last?.id ?? 0);
    expect(page).toContain(
      "Not sent to the new-lead phone, as a text: this number has had 4 texts in the last 24 hours, the most one number gets.",
    );
    // Failed, a staff member may replay it; it is refused again when it is sent, and nothing reaches the phone.
    const replay = await postReplay(staffCookie, last?.id ?? 0, { deliveryId: String(last?.text.id) });
    expect(replay.status).toBe(200);
    await waitFor("the replay's text to end", sendsEnded(last?.id ?? 0));
    expect(textsToOnCall()).toBe(4);
  });
});
