import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturingLogger } from "#tests/capturing-logger";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { submissionFiles, submissions } from "./db/schema.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function failureOf(query: PromiseLike<unknown>): Promise<unknown> {
  try {
    await query;
  } catch (error) {
    return error;
  }
  throw new Error("the query was expected to fail");
}

const ANSWER = "Gate code 4471, the dog is friendly";
const RESUME = Buffer.from("%PDF-1.7 Jordan Placeholder, 12 Example Lane, SSN 000-00-0000");

function submission(reference: string) {
  return {
    reference,
    type: "estimate",
    submissionKey: reference,
    status: "new",
    payload: { firstName: "Jordan", comments: ANSWER },
    contactEmail: "jordan@example.com",
  };
}

describe("a database error in the log", () => {
  it("keeps the SQL and PostgreSQL's message but not the form's answers", async () => {
    await database.db.insert(submissions).values(submission("EST-LOG001"));
    const error = await failureOf(database.db.insert(submissions).values(submission("EST-LOG001")));
    const { logger, lines } = capturingLogger();
    logger.error({ err: error }, "storing the submission failed");
    logger.child({ reqId: 1 }).error({ err: error }, "request failed");
    logger.error(error);
    logger.error({ err: error });
    const output = lines.join("");
    expect(output).toContain('insert into \\"submissions\\"');
    expect(output).toContain("duplicate key value violates unique constraint");
    expect(output).not.toContain("Gate code");
    expect(output).not.toContain("jordan@example.com");
  });

  it("does not carry a resume's bytes", async () => {
    const error = await failureOf(
      database.db.insert(submissionFiles).values({
        submissionId: 999_999,
        fieldName: "resume",
        fileName: "resume.pdf",
        contentType: "application/pdf",
        sizeBytes: RESUME.length,
        sha256: "0".repeat(64),
        content: RESUME,
      }),
    );
    const { logger, lines } = capturingLogger();
    logger.error({ err: error }, "storing the application failed");
    const output = lines.join("");
    expect(output).toContain("violates foreign key constraint");
    expect(output).not.toContain("Jordan Placeholder");
    expect(output).not.toContain("%PDF");
    expect(output).not.toContain("resume.pdf");
  });

  it("does not quote the failing row of a NOT NULL violation", async () => {
    const error = await failureOf(
      database.db.execute(
        sql`INSERT INTO submissions (reference, type, submission_key, status, payload)
          VALUES ('EST-LOG002', 'estimate', NULL, 'new', ${JSON.stringify({ comments: ANSWER })}::jsonb)`,
      ),
    );
    const { logger, lines } = capturingLogger();
    logger.error({ err: error }, "storing the submission failed");
    const output = lines.join("");
    expect(output).toContain("violates not-null constraint");
    expect(output).not.toContain("Gate code");
  });
});
