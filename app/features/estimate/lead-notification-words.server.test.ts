import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validEstimate } from "#tests/estimate-fixture";
import { formActionHarness } from "#tests/form-action";
import { addStaffUser } from "#tests/staff";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { pushSubscriptions } from "~/services/db/schema.server";
import { submitEstimate } from "./submit-estimate.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const admin = await addStaffUser(database.db, "admin");
  await database.db.insert(pushSubscriptions).values({
    userId: admin.id,
    endpoint: "https://push.example.com/device-1",
    p256dh: "key",
    auth: "secret",
    deviceName: "The admin's phone",
    formTypes: ["estimate"],
  });
});
afterAll(() => database.drop());

const { contextFor, post } = formActionHarness({ path: "/learnmore", database: () => database.db });
const ON_CALL = {
  TWILIO_ACCOUNT_SID: "AC123",
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_FROM: "+18035550100",
  NEW_LEAD_SMS_TO: "(803) 555-0111",
};

async function leadFrom(answers: Record<string, string>) {
  const response = await submitEstimate(
    post({ ...validEstimate, ...answers, submissionKey: crypto.randomUUID() }),
    contextFor(ON_CALL),
  );
  const { reference } = response.data as { reference?: string };
  if (!reference) throw new Error(`not stored: ${JSON.stringify(response.data)}`);
  const { deliveries } = await storedByReference(database.db, reference);
  const text = deliveries.find((delivery) => delivery.channel === "sms")?.body as { text: string };
  const push = deliveries.find((delivery) => delivery.channel === "push")?.body as Record<string, string>;
  return { reference, text: text.text, push };
}

const LINK = /https?:|:\/\/|www\.|evil\.example|\.ly\b/i;

describe("the on-call text and the staff's notifications of a new lead", () => {
  it("quote a visitor's answers on one line, without links, capped, and ring only a valid number", async () => {
    const { reference, text, push } = await leadFrom({
      firstName: "Call now\nhttps://evil.example/x",
      lastName: "Urgent\u202E www.evil.example bit.ly/abc",
      city: "Your account is locked: reply with your password to keep it going",
      phone: "+1 (900) 555-0199 or visit evil.example",
      bestTime: "Morning\r\nText STOP to evil.example/stop",
    });
    for (const words of [text, push.title, push.body]) {
      expect(words).not.toMatch(/[\p{Cc}\p{Cf}]/u);
      expect(words).not.toMatch(LINK);
    }
    expect(text).toBe(
      `New estimate request ${reference}: Call now Urgent, Your account is locked: reply with your…, commercial. No number to call: see the inbox.`,
    );
    expect(push).toEqual({
      title: "New estimate request: Call now Urgent, Your account is locked: reply with your…, commercial",
      body: "Prefers Phone call, Morning Text STOP to",
    });
  });

  it("keep a valid number's Call, written one way", async () => {
    const { text, push } = await leadFrom({ phone: "1-803-555-0199" });
    expect(text).toContain("Call (803) 555-0199.");
    expect(push.call).toBe("(803) 555-0199");
  });
});
