import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { addressPostCounts, deliveries, submissions } from "~/services/db/schema.server";
import {
  type NewSubmission,
  type OutgoingDelivery,
  OverSubmissionLimit,
  storeSubmission,
} from "./submission-store.server";

const REFERENCE = /^EST-[0-9A-HJKMNP-TV-Z]{6}$/;

const ESTIMATE_DELIVERIES: OutgoingDelivery[] = [
  {
    channel: "webhook",
    target: "WEBHOOK_ESTIMATE_URL",
    destination: "http://127.0.0.1:9/estimate",
    body: { event: "estimate.created", name: "Ada Lovelace" },
  },
  {
    channel: "email",
    target: "STAFF_NOTIFY_EMAIL",
    destination: "staff@example.com",
    body: { subject: "New estimate", text: "Ada", html: "<p>Ada</p>" },
  },
];

/** A kind of submission as the store needs it: the rest of a form's definition plays no part here. */
const kind = (type: string, referencePrefix: string): NewSubmission["definition"] => ({
  type,
  referencePrefix,
  statuses: ["New"],
  contact: (payload) => ({ name: String(payload.name ?? ""), email: "", phone: String(payload.phone ?? "") }),
});

function estimate(overrides: Partial<NewSubmission> = {}): NewSubmission {
  return {
    definition: kind("estimate", "EST"),
    submissionKey: randomUUID(),
    payload: { name: "Ada Lovelace", phone: "555-0100", message: "Panel upgrade, please" },
    clientIp: "203.0.113.7",
    userAgent: "vitest",
    deliveries: () => ESTIMATE_DELIVERIES,
    ...overrides,
  };
}

describe("storeSubmission", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  async function count(table: typeof submissions | typeof deliveries): Promise<number> {
    return database.db.$count(table);
  }

  async function submissionsWithKey(key: string) {
    return database.db.select().from(submissions).where(eq(submissions.submissionKey, key));
  }

  async function deliveriesOf(submissionId: number) {
    return database.db.select().from(deliveries).where(eq(deliveries.submissionId, submissionId));
  }

  it("stores the submission and one pending delivery per target", async () => {
    const input = estimate();
    const stored = await storeSubmission(database.db, input);

    expect(stored.duplicate).toBe(false);
    expect(stored.reference).toMatch(REFERENCE);

    const [row, ...others] = await submissionsWithKey(input.submissionKey);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      id: stored.id,
      reference: stored.reference,
      type: "estimate",
      payload: input.payload,
      isSpam: false,
      spamReason: null,
      clientIp: "203.0.113.7",
      userAgent: "vitest",
    });

    const rows = await deliveriesOf(stored.id);
    expect(rows).toHaveLength(2);
    for (const delivery of rows) {
      expect(delivery.webhookId).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(delivery).toMatchObject({ status: "pending", attemptCount: 0, leaseExpiresAt: null, deliveredAt: null });
    }
    expect(new Set(rows.map((delivery) => delivery.webhookId)).size).toBe(2);
    const byTarget = Object.fromEntries(rows.map((delivery) => [delivery.target, delivery]));
    expect(byTarget.WEBHOOK_ESTIMATE_URL).toMatchObject({
      channel: "webhook",
      destination: "http://127.0.0.1:9/estimate",
      body: { event: "estimate.created", name: "Ada Lovelace" },
    });
    expect(byTarget.STAFF_NOTIFY_EMAIL).toMatchObject({
      channel: "email",
      destination: "staff@example.com",
      body: { subject: "New estimate", text: "Ada", html: "<p>Ada</p>" },
    });
  });

  it("gives each submission its own reference", async () => {
    const references = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const stored = await storeSubmission(database.db, estimate({ deliveries: () => [] }));
      expect(stored.reference).toMatch(REFERENCE);
      references.add(stored.reference);
    }
    expect(references.size).toBe(20);
  });

  it("returns the first reference for the same (type, submissionKey) and stores nothing new", async () => {
    const input = estimate();
    const first = await storeSubmission(database.db, input);
    const [submissionsBefore, deliveriesBefore] = [await count(submissions), await count(deliveries)];

    const again = await storeSubmission(database.db, { ...input, payload: { name: "Someone else" } });

    expect(again).toEqual({ id: first.id, reference: first.reference, duplicate: true, files: [] });
    expect(await count(submissions)).toBe(submissionsBefore);
    expect(await count(deliveries)).toBe(deliveriesBefore);
    const [row] = await submissionsWithKey(input.submissionKey);
    expect(row?.payload).toEqual(input.payload);
  });

  it("treats the same key under another type as another submission", async () => {
    const key = randomUUID();
    const estimateStored = await storeSubmission(database.db, estimate({ submissionKey: key }));
    const jobStored = await storeSubmission(
      database.db,
      estimate({ submissionKey: key, definition: kind("job-request", "JOB") }),
    );
    expect(jobStored.duplicate).toBe(false);
    expect(jobStored.id).not.toBe(estimateStored.id);
    expect(jobStored.reference).toMatch(/^JOB-/);
  });

  it("stores one submission when 10 identical calls race", async () => {
    const input = estimate();
    const [submissionsBefore, deliveriesBefore] = [await count(submissions), await count(deliveries)];

    const results = await Promise.all(Array.from({ length: 10 }, () => storeSubmission(database.db, input)));

    const firsts = results.filter((result) => !result.duplicate);
    expect(firsts).toHaveLength(1);
    const first = firsts[0];
    for (const result of results) expect(result).toMatchObject({ id: first?.id, reference: first?.reference });
    expect(await count(submissions)).toBe(submissionsBefore + 1);
    expect(await count(deliveries)).toBe(deliveriesBefore + 2);
    expect(await submissionsWithKey(input.submissionKey)).toHaveLength(1);
  });

  it("stores spam flagged, with its deliveries held", async () => {
    const input = estimate({ spamReason: "honeypot filled" });
    const stored = await storeSubmission(database.db, input);

    expect(stored.duplicate).toBe(false);
    const [row] = await submissionsWithKey(input.submissionKey);
    expect(row).toMatchObject({ isSpam: true, spamReason: "honeypot filled" });
    const rows = await deliveriesOf(stored.id);
    expect(rows.map((delivery) => delivery.status)).toEqual(["held", "held"]);
  });

  it("builds the deliveries from the reference it stores", async () => {
    const input = estimate({
      deliveries: (reference) => [
        {
          channel: "email",
          target: "STAFF_NOTIFY_EMAIL",
          destination: "staff@example.com",
          body: { subject: `New estimate ${reference}`, text: reference, html: `<p>${reference}</p>` },
        },
      ],
    });
    const stored = await storeSubmission(database.db, input);

    const [row] = await deliveriesOf(stored.id);
    expect(row?.body).toEqual({
      subject: `New estimate ${stored.reference}`,
      text: stored.reference,
      html: `<p>${stored.reference}</p>`,
    });
    expect(await deliveriesOf(stored.id)).toHaveLength(1);

    const again = await storeSubmission(database.db, input);
    expect(again).toMatchObject({ reference: stored.reference, duplicate: true });
    expect(await deliveriesOf(stored.id)).toHaveLength(1);
  });

  it("stores a submission without deliveries", async () => {
    const input = estimate({ deliveries: () => [] });
    const stored = await storeSubmission(database.db, input);
    expect(await submissionsWithKey(input.submissionKey)).toHaveLength(1);
    expect(await deliveriesOf(stored.id)).toEqual([]);
  });

  it("leaves neither the submission nor any delivery when a delivery cannot be stored", async () => {
    const input = estimate();
    const broken = {
      channel: "webhook" as const,
      target: "WEBHOOK_BROKEN_URL",
      destination: null as unknown as string,
      body: { event: "estimate.created" },
    };
    const [submissionsBefore, deliveriesBefore] = [await count(submissions), await count(deliveries)];

    const error = await storeSubmission(database.db, {
      ...input,
      deliveries: () => [...ESTIMATE_DELIVERIES, broken],
    }).then(
      () => undefined,
      (failure: unknown) => failure as Error & { cause?: Error },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.cause?.message ?? error?.message).toMatch(/null value in column "destination"/);

    expect(await submissionsWithKey(input.submissionKey)).toEqual([]);
    expect(await count(submissions)).toBe(submissionsBefore);
    expect(await count(deliveries)).toBe(deliveriesBefore);

    // Nothing half-stored blocks the key: the resend of the form goes through.
    const retried = await storeSubmission(database.db, input);
    expect(retried.duplicate).toBe(false);
    expect(await deliveriesOf(retried.id)).toHaveLength(2);
  });

  describe("the limit per address", () => {
    const limited = (clientIp: string, count: number, overrides: Partial<NewSubmission> = {}) =>
      estimate({ clientIp, limitPerAddress: { count, windowSeconds: 600 }, ...overrides });
    const refusal = (input: NewSubmission) =>
      storeSubmission(database.db, input).then(
        () => undefined,
        (error: unknown) => error,
      );
    const countsOf = (address: string) =>
      database.db.select().from(addressPostCounts).where(eq(addressPostCounts.clientAddress, address));

    it("counts posts stored at once over several connections, and refuses the next without storing it", async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => storeSubmission(database.db, limited("198.51.100.20", 12))),
      );
      expect(results.every((result) => !result.duplicate)).toBe(true);
      const counts = await countsOf("198.51.100.20");
      // Posts in flight together were stored on connections of their own, each adding to its own row.
      expect(counts.length).toBeGreaterThan(1);
      expect(counts.reduce((sum, row) => sum + row.posts, 0)).toBe(12);

      const over = limited("198.51.100.20", 12);
      expect(await refusal(over)).toBeInstanceOf(OverSubmissionLimit);
      expect(await submissionsWithKey(over.submissionKey)).toEqual([]);
      expect((await countsOf("198.51.100.20")).reduce((sum, row) => sum + row.posts, 0)).toBe(12);
    });

    it("does not count a resend of the same submission", async () => {
      const input = limited("198.51.100.21", 2);
      await storeSubmission(database.db, input);
      expect(await storeSubmission(database.db, input)).toMatchObject({ duplicate: true });
      expect(await storeSubmission(database.db, limited("198.51.100.21", 2))).toMatchObject({ duplicate: false });
      expect(await refusal(limited("198.51.100.21", 2))).toBeInstanceOf(OverSubmissionLimit);
    });

    it("forgets posts older than the window, and counts an IPv6 network as one address", async () => {
      await database.db.insert(addressPostCounts).values({
        clientAddress: "2001:db8:5:6::/64",
        minute: new Date(Date.now() - 11 * 60_000),
        connection: 1,
        posts: 50,
      });
      await storeSubmission(database.db, limited("2001:db8:5:6::1", 2));
      await storeSubmission(database.db, limited("2001:db8:5:6::2", 2));
      expect(await refusal(limited("2001:db8:5:6::3", 2))).toBeInstanceOf(OverSubmissionLimit);
      expect(await storeSubmission(database.db, limited("2001:db8:5:7::1", 2))).toMatchObject({ duplicate: false });
    });
  });
});
