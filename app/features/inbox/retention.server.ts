import { and, eq, lt, or, sql } from "drizzle-orm";
import { submissionTypes } from "~/features/submission-types.server";
import { PUBLIC_FORM_LIMIT_WINDOW_SECONDS } from "~/forms/public-guards.server";
import type { Database } from "~/services/db/database.server";
import { addressPostCounts, submissionFiles, submissions } from "~/services/db/schema.server";
import type { JobServices } from "~/services/periodic-job.server";

export const SPAM_RETENTION_DAYS = 30;

export type RetentionOutcome = {
  /** References of the spam submissions deleted, with everything that hung on them. */
  spamReferences: string[];
  /** References of the submissions whose files were deleted (rejected applications), once per file. */
  resumeReferences: string[];
  /** Rows of the public forms' counts per address that fell out of the limit's window. */
  postCountsDeleted: number;
};

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

/** The submissions whose files have had their time: each type's retention status, reached long enough ago. */
function filesPastRetention(days: number) {
  const conditions = submissionTypes.flatMap((definition) =>
    definition.fileRetention
      ? [and(eq(submissions.type, definition.type), eq(submissions.status, definition.fileRetention.afterStatus))]
      : [],
  );
  return and(or(...conditions), lt(submissions.statusChangedAt, daysAgo(days)));
}

/**
 * Deletes spam listed for 30 days, the resumes of applicants rejected long enough ago and the counts per address
 * older than the public forms' limit looks back. Each is a single DELETE: when several app instances run it at
 * once, a row is deleted, and reported, by one of them only.
 */
export async function applyRetention(
  db: Database,
  options: { resumeRetentionDays: number },
): Promise<RetentionOutcome> {
  const spam = await db
    .delete(submissions)
    .where(and(eq(submissions.isSpam, true), lt(submissions.spamSince, daysAgo(SPAM_RETENTION_DAYS))))
    .returning({ reference: submissions.reference });
  // Drizzle's delete has no USING; RETURNING the reference from the joined submission needs it.
  const resumes = await db.execute<{ reference: string }>(sql`
    DELETE FROM ${submissionFiles} USING ${submissions}
    WHERE ${submissionFiles.submissionId} = ${submissions.id}
      AND ${filesPastRetention(options.resumeRetentionDays)}
    RETURNING ${submissions.reference}`);
  const resumeReferences = resumes.rows.map((row) => row.reference);
  const postCounts = await db
    .delete(addressPostCounts)
    .where(lt(addressPostCounts.minute, sql`now() - make_interval(secs => ${PUBLIC_FORM_LIMIT_WINDOW_SECONDS})`));
  return {
    spamReferences: spam.map((row) => row.reference),
    resumeReferences,
    postCountsDeleted: postCounts.rowCount ?? 0,
  };
}

/** The hourly retention run (the inbox's periodic job): logs what it deleted. */
export async function runRetention({ db, config, logger }: JobServices): Promise<void> {
  const outcome = await applyRetention(db, { resumeRetentionDays: config.RESUME_RETENTION_DAYS });
  const deleted = outcome.spamReferences.length + outcome.resumeReferences.length;
  const log = {
    spamDeleted: outcome.spamReferences.length,
    spamReferences: outcome.spamReferences,
    resumesDeleted: outcome.resumeReferences.length,
    resumeReferences: outcome.resumeReferences,
    postCountsDeleted: outcome.postCountsDeleted,
  };
  if (deleted > 0) logger.info(log, "retention deleted old spam and resumes");
  else logger.debug(log, "retention found nothing to delete");
}
