import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validEstimate } from "#tests/estimate-fixture";
import { formActionHarness } from "#tests/form-action";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { issueFillToken } from "~/forms/fill-time.server";
import { deliveries, submissions } from "~/services/db/schema.server";
import { submitEstimate } from "./submit-estimate.server";

const VALID = validEstimate;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const { contextFor, post } = formActionHarness({
  path: "/learnmore",
  database: () => database.db,
  env: {
    WEBHOOK_ESTIMATE_URL: "http://127.0.0.1:9/estimate",
    SMTP_URL: "smtp://127.0.0.1:9",
    STAFF_NOTIFY_EMAIL: "office@example.com",
  },
  clientIp: "192.0.2.10",
});

const referenceOf = (response: { data: unknown }) => (response.data as { reference: string }).reference;

async function countSubmissions(): Promise<number> {
  return (await database.db.select().from(submissions)).length;
}

describe("the estimate action", () => {
  it("stores the request with a webhook in the original nine-field shape and an office email", async () => {
    const response = await submitEstimate(post({ ...VALID, submissionKey: crypto.randomUUID() }), contextFor());
    expect(response.init?.status ?? 200).toBe(200);
    expect(response.data).toMatchObject({ status: "success", projectType: "commercial" });
    const reference = referenceOf(response);
    expect(reference).toMatch(/^EST-[0-9A-Z]{6}$/);

    const { submission: stored, deliveries: outgoing } = await storedByReference(database.db, reference);
    expect(stored).toMatchObject({ type: "estimate", isSpam: false, clientIp: "192.0.2.10", userAgent: "test-agent" });
    expect(outgoing.map((delivery) => [delivery.channel, delivery.target, delivery.status])).toEqual([
      ["webhook", "WEBHOOK_ESTIMATE_URL", "pending"],
      ["email", "STAFF_NOTIFY_EMAIL", "pending"],
    ]);
    expect(JSON.stringify(outgoing[0]?.body)).toBe(JSON.stringify(VALID));
    const email = outgoing[1]?.body as { subject: string; text: string; html: string };
    expect(email.subject).toBe(`New estimate request ${reference} from Avery Placeholder`);
    expect(email.text).toContain("Best time to reach you: Morning");
    expect(email.html).toContain("<th");
  });

  it("sends comments as an empty string when none were given", async () => {
    const { comments: _, ...withoutComments } = VALID;
    const response = await submitEstimate(
      post({ ...withoutComments, submissionKey: crypto.randomUUID() }),
      contextFor(),
    );
    const { deliveries: outgoing } = await storedByReference(database.db, referenceOf(response));
    expect(outgoing[0]?.body).toMatchObject({ comments: "" });
  });

  it("stores nothing and names the problem for an empty field, an over-long value, control characters or an unknown project type", async () => {
    const before = await countSubmissions();
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...VALID, city: "" }, "required"],
      [{ ...VALID, firstName: "A".repeat(81) }, "First name is too long (at most 80 characters)"],
      [{ ...VALID, lastName: "Lee\u0000" }, "Last name contains characters we cannot accept"],
      [{ ...VALID, projectType: "castle" }, "Choose residential or commercial"],
    ];
    for (const [fields, message] of cases) {
      const response = await submitEstimate(post(fields), contextFor());
      expect(response.init?.status).toBe(400);
      const result = (response.data as { result: { error?: Record<string, string[]> } }).result;
      expect(Object.values(result.error ?? {}).flat()).toContain(message);
    }
    expect(await countSubmissions()).toBe(before);
  });

  it("answers 400, not 500, to a body that is not a form", async () => {
    const request = new Request("http://localhost/learnmore", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(VALID),
    });
    const response = await submitEstimate(request, contextFor());
    expect(response.init?.status).toBe(400);
    expect(response.data).toMatchObject({ status: "error", message: expect.stringContaining("send it again") });
  });

  it("makes a resend with the same key the same request", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await countSubmissions();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => submitEstimate(post({ ...VALID, submissionKey }), contextFor())),
    );
    const references = new Set(answers.map(referenceOf));
    expect(references.size).toBe(1);
    expect(await countSubmissions()).toBe(before + 1);
  });

  it("treats the same values from the same address as one request when the form carries no key (no JavaScript)", async () => {
    const fields = { ...VALID, firstName: "NoScript" };
    const first = await submitEstimate(post(fields), contextFor({}, "198.51.100.7"));
    const second = await submitEstimate(post(fields), contextFor({}, "198.51.100.7"));
    expect(referenceOf(second)).toBe(referenceOf(first));
  });

  it("holds only what filled the honeypot as spam: stored as evidence, flagged, its deliveries held", async () => {
    const response = await submitEstimate(
      post({ ...VALID, submissionKey: crypto.randomUUID(), website: "https://spam.example" }),
      contextFor(),
    );
    expect(response.data).toMatchObject({ status: "success" });
    const { submission: stored, deliveries: held } = await storedByReference(database.db, referenceOf(response));
    expect(stored).toMatchObject({ isSpam: true, spamReason: "filled the hidden website field" });
    expect(stored?.spamSince).toBeInstanceOf(Date);
    expect(held.map((delivery) => delivery.status)).toEqual(["held", "held"]);
  });

  it("marks a send within a second of its server-issued token as suspicious, and still delivers it", async () => {
    const fillToken = issueFillToken(contextFor().config, Date.now() - 800);
    const response = await submitEstimate(
      post({ ...VALID, submissionKey: crypto.randomUUID(), fillToken }),
      contextFor(),
    );
    const { submission: stored, deliveries: outgoing } = await storedByReference(database.db, referenceOf(response));
    expect(stored).toMatchObject({ isSpam: false, spamReason: null });
    expect(stored?.suspiciousReason).toMatch(/^sent 0\.\d s after the form was opened$/);
    expect(outgoing.map((delivery) => delivery.status)).toEqual(["pending", "pending"]);
  });

  it("marks a forged or altered token as suspicious, never as spam", async () => {
    const genuine = issueFillToken(contextFor().config, Date.now() - 60_000);
    const [issuedAt, signature] = genuine.split(".");
    for (const fillToken of [`${Number(issuedAt) - 600_000}.${signature}`, "12345.not-a-signature"]) {
      const response = await submitEstimate(
        post({ ...VALID, submissionKey: crypto.randomUUID(), fillToken }),
        contextFor(),
      );
      const { submission: stored } = await storedByReference(database.db, referenceOf(response));
      expect(stored).toMatchObject({ isSpam: false, suspiciousReason: "its fill-time token was not one we issued" });
    }
  });

  it("lets a person who took their time through, unmarked, whatever their own clock said", async () => {
    const fillToken = issueFillToken(contextFor().config, Date.now() - 60_000);
    const response = await submitEstimate(
      post({ ...VALID, submissionKey: crypto.randomUUID(), fillToken, startedAt: String(Date.now() + 300_000) }),
      contextFor(),
    );
    const { submission: stored } = await storedByReference(database.db, referenceOf(response));
    expect(stored).toMatchObject({ isSpam: false, suspiciousReason: null });
  });

  it("answers 429 with the office phone once an address passes the limit", async () => {
    const context = contextFor({ PUBLIC_FORM_RATE_LIMIT: "2" }, "203.0.113.99");
    for (let count = 0; count < 2; count++) {
      const ok = await submitEstimate(post({ ...VALID, submissionKey: crypto.randomUUID() }), context);
      expect(ok.data).toMatchObject({ status: "success" });
    }
    const limited = await submitEstimate(post({ ...VALID, submissionKey: crypto.randomUUID() }), context);
    expect(limited.init?.status).toBe(429);
    expect(limited.data).toMatchObject({ status: "error", message: expect.stringContaining("(803) 555-0142") });
  });

  it("answers 503 with the office phone, not a 500, when the database is down", async () => {
    await database.setReachable(false);
    try {
      const response = await submitEstimate(post({ ...VALID, submissionKey: crypto.randomUUID() }), contextFor());
      expect(response.init?.status).toBe(503);
      expect(response.data).toMatchObject({ status: "error", message: expect.stringContaining("(803) 555-0142") });
    } finally {
      await database.setReachable(true);
    }
  });

  it("never answers 5xx and never stores invalid input, whatever the fields hold", async () => {
    const fieldNames = [...Object.keys(VALID), "submissionKey", "fillToken", "website", "unexpected"];
    await fc.assert(
      fc.asyncProperty(
        fc
          .dictionary(
            fc.constantFrom(...fieldNames),
            fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 3000 })),
          )
          .chain((fields) => fc.constantFrom(fields, { ...VALID, ...fields })),
        async (fields) => {
          const before = await countSubmissions();
          const response = await submitEstimate(post(fields), contextFor());
          const status = response.init?.status ?? 200;
          expect(status).toBeLessThan(500);
          if (status === 400) expect(await countSubmissions()).toBe(before);
        },
      ),
      { numRuns: 150 },
    );
    expect(await database.db.$count(deliveries)).toBeGreaterThan(0);
  });
});
