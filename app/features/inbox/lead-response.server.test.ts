import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { storeEstimate } from "#tests/inbox-fixture";
import { storedJobRequest } from "#tests/staff-request-fixture";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { jobRequestForm } from "~/features/scheduling/job-request/definition";
import type { AnyFormDefinition } from "~/forms/definition";
import { storeSubmission } from "~/outbox/submission-store.server";
import { submissionEvents, submissions } from "~/services/db/schema.server";
import { formatWait, loadLeadResponse } from "./lead-response.server";

const state = staffTestDatabaseForFile();
const db = () => state.database.db;
const DAY = { INBOX_ALERT_AFTER: 24 * 3_600_000 };
const minutes = (count: number) => count * 60_000;

/** Wednesday 2026-11-04, 10:00 in New York. The week began Monday 2026-11-02 at 00:00 EST, 05:00Z. */
const NOW = new Date("2026-11-04T15:00:00Z");

/** A submission that came in at `at`, with its status changed `answers` after it (the first one counts). */
async function leadAt(
  at: string,
  options: { answers?: number[]; name?: string; spam?: boolean; definition?: AnyFormDefinition } = {},
) {
  const stored = options.definition
    ? await storeSubmission(db(), {
        definition: options.definition,
        submissionKey: randomUUID(),
        payload: storedJobRequest,
        deliveries: () => [],
      })
    : await storeEstimate(db(), { spamReason: options.spam ? "honeypot" : undefined });
  const arrived = new Date(at);
  await db()
    .update(submissions)
    .set({ createdAt: arrived, status: options.answers?.length ? "Contacted" : undefined, contactName: options.name })
    .where(eq(submissions.id, stored.id));
  for (const after of options.answers ?? []) {
    await db()
      .insert(submissionEvents)
      .values({
        submissionId: stored.id,
        actorId: state.actorId,
        kind: "status",
        fromValue: "New",
        toValue: "Contacted",
        createdAt: new Date(arrived.getTime() + minutes(after)),
      });
  }
  return stored;
}

describe("how fast leads are answered, on Quick Links", () => {
  let oldWaiting: { id: number; reference: string };

  beforeAll(async () => {
    await leadAt("2026-11-02T05:30:00Z", { answers: [12] });
    // Its first status change counts, not the later one.
    await leadAt("2026-11-03T14:00:00Z", { answers: [30, 300] });
    await leadAt("2026-11-03T16:00:00Z", { answers: [5] });
    // Sunday 23:30 in New York, though Monday in UTC: last week's.
    await leadAt("2026-11-02T04:30:00Z", { answers: [1] });
    // This week's, an hour old and not answered yet: left out of the median, not yet waiting too long.
    await leadAt("2026-11-04T14:00:00Z");
    // Spam and other forms are not leads.
    await leadAt("2026-11-03T10:00:00Z", { answers: [600], spam: true });
    await leadAt("2026-11-03T10:00:00Z", { answers: [900], definition: jobRequestForm });
    oldWaiting = await leadAt("2026-11-01T12:00:00Z", { name: "Avery Old" });
    // Answered long ago: no longer waiting.
    await leadAt("2026-10-20T12:00:00Z", { answers: [60 * 50] });
  });

  it("gives this week's median time to the first answer and how many leads it counts, and the leads waiting too long", async () => {
    const response = await loadLeadResponse(db(), DAY, NOW);
    expect(response.median).toBe("Median time to first answer this week: 12 min (3 leads).");
    expect(response.unanswered).toBe("1 lead of this week not answered yet, left out of the median.");
    expect(response.waiting.summary).toBe("1 lead has waited more than 24 hours without an answer.");
    expect(response.waiting.oldest).toEqual([
      { id: oldWaiting.id, reference: oldWaiting.reference, name: "Avery Old", waited: "3 days 3 h" },
    ]);
    expect(response.waiting.href).toBe("/admin/inbox?type=estimate&status=New");
  });

  it("says so plainly when no lead came in this week", async () => {
    const response = await loadLeadResponse(db(), DAY, new Date("2026-10-12T15:00:00Z"));
    expect(response.median).toBe("No leads have come in this week yet.");
    expect(response.unanswered).toBe("");
    expect(response.waiting.summary).toBe("No lead has waited more than 24 hours without an answer.");
    expect(response.waiting.oldest).toEqual([]);
  });

  it("counts a lead as waiting after the alert's setting, not before", async () => {
    const response = await loadLeadResponse(db(), { INBOX_ALERT_AFTER: minutes(30) }, NOW);
    expect(response.waiting.summary).toBe("2 leads have waited more than 30 minutes without an answer.");
    expect(response.waiting.oldest.map((lead) => lead.waited)).toEqual(["3 days 3 h", "1 h"]);
  });

  it("writes waits to the minute", () => {
    expect([59, 12 * 60, 3600, 3 * 3600 + 5 * 60, 86_400, 2 * 86_400 + 4 * 3600].map(formatWait)).toEqual([
      "1 min",
      "12 min",
      "1 h",
      "3 h 5 min",
      "1 day",
      "2 days 4 h",
    ]);
  });
});
