import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Transaction } from "~/server/db/database.server";
import { submissions } from "~/server/db/schema.server";

/**
 * The submission, locked for the rest of the transaction, so two staff changing it at once each see the
 * other's change in their history's "from". A 404 when it does not exist (deleted by retention meanwhile).
 */
export async function lockSubmission(tx: Transaction, submissionId: number) {
  const [submission] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for("update");
  if (!submission) throw data({ message: "No such submission." }, { status: 404 });
  return submission;
}
