import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/services/db/database.server";
import { submissionFiles } from "~/services/db/schema.server";

export type StoredFile = typeof submissionFiles.$inferSelect;

/**
 * The files sent with a submission, in the order they came, content included; only those under `fieldNames`
 * when given (a delivery that needs the PDF does not read every photo).
 */
export function readSubmissionFiles(
  db: Database,
  submissionId: number,
  fieldNames?: readonly string[],
): Promise<StoredFile[]> {
  return db
    .select()
    .from(submissionFiles)
    .where(
      and(
        eq(submissionFiles.submissionId, submissionId),
        fieldNames ? inArray(submissionFiles.fieldName, [...fieldNames]) : undefined,
      ),
    )
    .orderBy(asc(submissionFiles.id));
}
