import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assessmentAnswers } from "#tests/assessment-fixture";
import { formActionHarness } from "#tests/form-action";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { defaultSiteContent } from "~/content/site-content";
import { submissions } from "~/services/db/schema.server";
import { submitAssessment } from "./submit-assessment.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const { contextFor, post } = formActionHarness({
  path: "/assessment",
  database: () => database.db,
  env: { WEBHOOK_ASSESSMENT_URL: "http://127.0.0.1:9/assessment" },
  clientIp: "192.0.2.20",
});

const countSubmissions = async () => (await database.db.select().from(submissions)).length;
const referenceOf = (response: { data: unknown }) => (response.data as { reference: string }).reference;

describe("the assessment action", () => {
  it("says what happens next in the published words, with the published office phone", async () => {
    const content = structuredClone(defaultSiteContent);
    content.company.phone = "(803) 555-0199";
    content.careers.assessmentNextSteps = "We read every score within a week. Call {phone} with questions.";
    const response = await submitAssessment(post({ ...assessmentAnswers(12), submissionKey: crypto.randomUUID() }), {
      ...contextFor(),
      siteContent: content,
    });
    expect(response.data).toMatchObject({
      nextStep: "We read every score within a week. Call (803) 555-0199 with questions.",
    });
  });

  it("scores on the server, stores the answers with a webhook delivery in the spec §7 shape, and answers with the score only", async () => {
    const answers = assessmentAnswers(12);
    const response = await submitAssessment(post({ ...answers, submissionKey: crypto.randomUUID() }), contextFor());
    expect(response.init?.status ?? 200).toBe(200);
    expect(response.data).toEqual({
      status: "success",
      reference: expect.stringMatching(/^ASM-[0-9A-Z]{6}$/),
      score: { correct: 12, total: 15, percentage: 80 },
      feedback: "Excellent performance!",
      nextStep: expect.stringContaining(`Questions? Call us at ${defaultSiteContent.company.phone}.`),
      message: expect.any(String),
      sent: true,
    });

    const { submission, deliveries } = await storedByReference(database.db, referenceOf(response));
    expect(submission).toMatchObject({
      type: "assessment",
      isSpam: false,
      clientIp: "192.0.2.20",
      userAgent: "test-agent",
    });
    const expectedBody = { answers, score: { correct: 12, total: 15, percentage: 80 } };
    expect(submission?.payload).toEqual(expectedBody);
    expect(deliveries.map((delivery) => [delivery.channel, delivery.target, delivery.status])).toEqual([
      ["webhook", "WEBHOOK_ASSESSMENT_URL", "pending"],
    ]);
    expect(JSON.stringify(deliveries[0]?.body)).toBe(JSON.stringify(expectedBody));
    const delivered = deliveries[0]?.body as { answers: object } | undefined;
    expect(Object.keys(delivered?.answers ?? {})).toEqual(Array.from({ length: 18 }, (_, index) => String(index + 1)));
  });

  it("stores the submission without a delivery when WEBHOOK_ASSESSMENT_URL is unset", async () => {
    const response = await submitAssessment(
      post({ ...assessmentAnswers(3), submissionKey: crypto.randomUUID() }),
      contextFor({ WEBHOOK_ASSESSMENT_URL: "" }),
    );
    const { submission, deliveries } = await storedByReference(database.db, referenceOf(response));
    expect(submission?.type).toBe("assessment");
    expect(deliveries).toEqual([]);
  });

  it("makes a retry with the same key the same submission", async () => {
    const submissionKey = crypto.randomUUID();
    const before = await countSubmissions();
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => submitAssessment(post({ ...assessmentAnswers(9), submissionKey }), contextFor())),
    );
    expect(new Set(replies.map(referenceOf)).size).toBe(1);
    expect(await countSubmissions()).toBe(before + 1);
  });

  it("refuses missing, malformed and unknown answers with a 400 naming each question, and stores nothing", async () => {
    const before = await countSubmissions();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...assessmentAnswers(15), "1": "  " }, "1", "This question needs an answer"],
      [{ ...assessmentAnswers(15), "2": "abby@" }, "2", "Enter a valid email address, like name@example.com"],
      [
        { ...assessmentAnswers(15), "3": "555-01" },
        "3",
        "Enter a phone number with its area code, like (803) 555-0100",
      ],
      [{ ...assessmentAnswers(15), "6": "D" }, "6", "Choose A, B or C"],
      [{ ...assessmentAnswers(15), "18": "correct" }, "18", "Choose A, B, C or D"],
    ];
    for (const [fields, id, problem] of cases) {
      const response = await submitAssessment(post(fields), contextFor());
      expect(response.init?.status).toBe(400);
      expect(response.data).toMatchObject({
        status: "invalid",
        problems: { [id]: problem },
        message: `Some answers need another look: question ${id}: ${problem}.`,
      });
    }
    const { "9": _, ...withoutNine } = assessmentAnswers(15);
    const missing = await submitAssessment(post(withoutNine), contextFor());
    expect(missing.data).toMatchObject({ status: "invalid", problems: { "9": "Choose A, B, C or D" } });
    expect(await countSubmissions()).toBe(before);
  });

  it("answers 400, not 500, to a body that is not a form", async () => {
    const request = new Request("http://localhost/assessment", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(assessmentAnswers(15)),
    });
    const response = await submitAssessment(request, contextFor());
    expect(response.init?.status).toBe(400);
    expect(response.data).toMatchObject({ status: "error", retry: false });
  });

  it("answers 503 with a Retry, not a 500, when the database is down", async () => {
    await database.setReachable(false);
    try {
      const response = await submitAssessment(
        post({ ...assessmentAnswers(15), submissionKey: crypto.randomUUID() }),
        contextFor(),
      );
      expect(response.init?.status).toBe(503);
      expect(response.data).toMatchObject({ status: "error", retry: true, message: expect.stringContaining("Retry") });
    } finally {
      await database.setReachable(true);
    }
  });
});
