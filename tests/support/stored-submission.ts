import { readSubmissionFiles } from "../../app/outbox/submission-files.server";
import type { Database } from "../../app/services/db/database.server";

/** The stored submission of a reference, with its deliveries (oldest first) and its files. */
export async function storedByReference(db: Database, reference: string) {
  const submission = await db.query.submissions.findFirst({ where: (t, { eq }) => eq(t.reference, reference) });
  if (!submission) throw new Error(`no submission ${reference}`);
  const deliveries = await db.query.deliveries.findMany({
    where: (t, { eq }) => eq(t.submissionId, submission.id),
    orderBy: (t, { asc }) => asc(t.id),
  });
  return { submission, deliveries, files: await readSubmissionFiles(db, submission.id) };
}
