import { asc, eq } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { submissionFiles } from "~/server/db/schema.server";

export type StoredFile = typeof submissionFiles.$inferSelect;

/** The files sent with a submission, in the order they came, content included. */
export function readSubmissionFiles(db: Database, submissionId: number): Promise<StoredFile[]> {
  return db
    .select()
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, submissionId))
    .orderBy(asc(submissionFiles.id));
}
