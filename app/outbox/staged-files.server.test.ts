import { createHash, randomUUID } from "node:crypto";
import { eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { submissionFiles, submissions } from "~/services/db/schema.server";
import { deleteAbandonedStagedFiles, FileStaging } from "./staged-files.server";
import { type NewSubmission, type SubmittedFile, storeSubmission } from "./submission-store.server";

const HOUR_MS = 60 * 60 * 1000;

const photo = (name: string, size: number): SubmittedFile => ({
  fieldName: "photos",
  fileName: name,
  contentType: "image/jpeg",
  content: new Uint8Array(size).map((_, index) => (index * 31 + name.length) % 251),
  uploaded: true,
});

function checklist(files: SubmittedFile[], overrides: Partial<NewSubmission> = {}): NewSubmission {
  return {
    definition: {
      type: "estimate-checklist",
      referencePrefix: "CHK",
      statuses: ["New"],
      contact: () => ({ name: "Ada", email: "ada@example.com", phone: "" }),
    },
    submissionKey: randomUUID(),
    payload: { name: "Ada" },
    files,
    fileNames: (reference) =>
      files.map((_, index) => ({ fileName: `${reference}-photo-${index + 1}.jpg`, sentAs: null })),
    deliveries: () => [],
    ...overrides,
  };
}

describe("files staged ahead of their submission", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const stagedRows = () => database.db.select().from(submissionFiles).where(isNull(submissionFiles.submissionId));
  const rowsOf = (submissionId: number) =>
    database.db.select().from(submissionFiles).where(eq(submissionFiles.submissionId, submissionId));

  it("are stored before the submission, which adopts them under its names with their bytes unchanged", async () => {
    const files = [photo("first.jpg", 3 * 1024 * 1024), photo("second.jpg", 70_000)];
    const staging = new FileStaging(database.db);
    for (const file of files) staging.stage(file);
    const staged = await staging.staged(files);
    expect(await stagedRows()).toHaveLength(2);

    const stored = await storeSubmission(database.db, checklist(staged));
    await staging.discardUnadopted();

    expect(await stagedRows()).toEqual([]);
    const rows = await rowsOf(stored.id);
    expect(rows.map((row) => row.fileName)).toEqual([
      `${stored.reference}-photo-1.jpg`,
      `${stored.reference}-photo-2.jpg`,
    ]);
    expect(stored.files.map((file) => file.id)).toEqual(staged.map((file) => file.stagedId));
    for (const [index, row] of rows.entries()) {
      const sent = files[index] as SubmittedFile;
      expect(Buffer.compare(row.content, Buffer.from(sent.content))).toBe(0);
      expect(row.sizeBytes).toBe(sent.content.byteLength);
      expect(row.sha256).toBe(createHash("sha256").update(sent.content).digest("hex"));
    }
  });

  it("stay staged when the submission's transaction is rolled back, and are deleted once the post gives up", async () => {
    const files = [photo("refused.jpg", 200_000)];
    const staging = new FileStaging(database.db);
    staging.stage(files[0] as SubmittedFile);
    const staged = await staging.staged(files);
    const refused = checklist(staged, {
      admit: async () => {
        throw new Error("over the sender's limit");
      },
    });

    await expect(storeSubmission(database.db, refused)).rejects.toThrow("over the sender's limit");
    expect(await stagedRows()).toHaveLength(1);
    await staging.discardUnadopted();
    expect(await stagedRows()).toEqual([]);
  });

  it("are deleted after a day when nothing adopted them, and an adopted file never is", async () => {
    const adopting = new FileStaging(database.db);
    const kept = [photo("kept.jpg", 10_000)];
    adopting.stage(kept[0] as SubmittedFile);
    const stored = await storeSubmission(database.db, checklist(await adopting.staged(kept)));
    const abandoned = new FileStaging(database.db);
    abandoned.stage(photo("abandoned.jpg", 10_000));
    await abandoned.staged([]);
    await database.db.update(submissionFiles).set({ createdAt: sql`now() - interval '30 hours'` });

    // Seen ten hours earlier, the rows were twenty hours old: not yet abandoned.
    expect(await deleteAbandonedStagedFiles(database.db, new Date(Date.now() - 10 * HOUR_MS))).toBe(0);
    expect(await stagedRows()).toHaveLength(1);
    expect(await deleteAbandonedStagedFiles(database.db)).toBe(1);
    expect(await stagedRows()).toEqual([]);
    expect(await rowsOf(stored.id)).toHaveLength(1);
  });

  it("are refused to a submission once deleted, and nothing of the submission is stored", async () => {
    const files = [photo("swept.jpg", 10_000)];
    const staging = new FileStaging(database.db);
    staging.stage(files[0] as SubmittedFile);
    const staged = await staging.staged(files);
    await staging.discardUnadopted();
    const before = await database.db.$count(submissionFiles);

    const submission = checklist(staged);
    await expect(storeSubmission(database.db, submission)).rejects.toThrow("no longer there");
    expect(await database.db.$count(submissionFiles)).toBe(before);
    expect(await database.db.$count(submissions, eq(submissions.submissionKey, submission.submissionKey))).toBe(0);
  });
});
