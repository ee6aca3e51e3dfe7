import { eq } from "drizzle-orm";
import { data } from "react-router";
import { mayReadSubmissionsOf } from "~/features/submission-types.server";
import type { SignedInStaff } from "~/services/auth/require-staff.server";
import type { Database } from "~/services/db/database.server";
import { submissions } from "~/services/db/schema.server";

/**
 * Refuses a submission the staff user may not read (its form's `readableBy`) with 403, and an unknown one
 * with 404.
 */
export async function requireReadableSubmission(
  db: Database,
  staff: Pick<SignedInStaff, "id" | "role">,
  submissionId: number,
): Promise<void> {
  const [row] = await db.select({ type: submissions.type }).from(submissions).where(eq(submissions.id, submissionId));
  if (!row) throw data({ message: "No such submission." }, { status: 404 });
  if (mayReadSubmissionsOf(row.type, staff.role)) return;
  throw data({ message: "This page is for admins only." }, { status: 403 });
}
