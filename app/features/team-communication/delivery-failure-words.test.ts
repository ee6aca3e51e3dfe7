import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInboxSubmission } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { staffRequest } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { newWebhookId } from "~/outbox/submission-store.server";
import { loader as submissionPageLoader } from "~/routes/admin/inbox-submission";
import { loader as messageHistoryLoader } from "~/routes/admin/team-communication-history";
import { deliveries, deliveryAttempts } from "~/services/db/schema.server";

const TECH_EMAIL = "tech@example.com";
const TECH_MOBILE = "+18035550150";
const SMTP_REFUSAL = `The receiving mail server refused the address (SMTP 550 5.1.1 <${TECH_EMAIL}>: Recipient address rejected)`;
const TWILIO_REFUSAL = `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${TECH_MOBILE} (Twilio 21408)`;

let database: TestDatabase;
let submissionId: number;
let staff: { id: number };
let admin: { id: number };

beforeAll(async () => {
  database = await createTestDatabase();
  [staff, admin] = await Promise.all([addStaffUser(database.db, "staff"), addStaffUser(database.db, "admin")]);
  const message = await insertInboxSubmission(database.db, {
    type: "team-message",
    payload: {
      subject: "Gate code",
      body: "The gate code is 4321.",
      recipients: [{ id: 1, name: "Ben Okafor", email: TECH_EMAIL, phoneNumber: TECH_MOBILE }],
      sentAt: new Date().toISOString(),
    },
  });
  submissionId = message.id;
  const failed = await database.db
    .insert(deliveries)
    .values(
      [
        { channel: "email" as const, destination: TECH_EMAIL, lastError: SMTP_REFUSAL },
        { channel: "sms" as const, destination: TECH_MOBILE, lastError: TWILIO_REFUSAL },
      ].map((delivery) => ({
        ...delivery,
        submissionId,
        webhookId: newWebhookId(),
        target: "Ben Okafor",
        body: {},
        status: "failed" as const,
        attemptCount: 1,
      })),
    )
    .returning();
  await database.db.insert(deliveryAttempts).values(
    failed.map((delivery) => ({
      deliveryId: delivery.id,
      startedAt: new Date(),
      durationMs: 40,
      error: delivery.lastError,
      succeeded: false,
      destination: delivery.destination,
    })),
  );
});
afterAll(() => database.drop());

/** A route's loader called as React Router calls it, for the user, after the staff middleware. */
async function loaderData(loader: (args: never) => unknown, userId: number, path: string, params = {}) {
  const context: AppLoadContext = loadContextFor(database.db);
  const request = await staffRequest(context, userId, path);
  return JSON.stringify(await (loader as (args: object) => Promise<unknown>)({ request, context, params }));
}

const pages = () => [
  { loader: messageHistoryLoader, path: "/admin/quick-links/team-communication/history", params: {} },
  {
    loader: submissionPageLoader,
    path: `/admin/inbox/${submissionId}`,
    params: { submissionId: String(submissionId) },
  },
];

describe("a team message's failed email and text", () => {
  it("tell a staff member the kind of failure, without the address or number the error quotes", async () => {
    for (const page of pages()) {
      const data = await loaderData(page.loader, staff.id, page.path, page.params);
      expect(data).not.toContain(TECH_EMAIL);
      expect(data).not.toContain("8035550150");
      expect(data).not.toContain("SMTP 550");
      expect(data).toContain("the address was refused");
      expect(data).toContain("the text service refused it");
    }
  });

  it("give an admin the service's own words", async () => {
    for (const page of pages()) {
      const data = await loaderData(page.loader, admin.id, page.path, page.params);
      expect(data).toContain(JSON.stringify(SMTP_REFUSAL).slice(1, -1));
      expect(data).toContain(TECH_MOBILE);
    }
  });
});
