import { and, eq } from "drizzle-orm";
import { describeSubmissionType } from "~/features/submission-types.server";
import { type Database, inTransaction } from "~/server/db/database.server";
import { staffUsers, submissionNotes, submissions } from "~/server/db/schema.server";
import { NOTE_MAX_LENGTH } from "./note-limits";
import { lockSubmission, recordSubmissionEvent } from "./submission-changes.server";
import { WorkflowInputError } from "./workflow-error";

type Change = { submissionId: number; actorId: number };

/** Moves a submission to another status of its type's workflow; false when it had that status already. */
export async function changeSubmissionStatus(db: Database, change: Change & { status: string }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const submission = await lockSubmission(tx, change.submissionId);
    const { statuses, label } = describeSubmissionType(submission.type);
    if (!statuses.includes(change.status)) {
      throw new WorkflowInputError(
        `"${change.status}" is not a status of this ${label.toLowerCase()}: ${statuses.join(", ")}.`,
      );
    }
    if (submission.status === change.status) return false;
    await tx
      .update(submissions)
      .set({ status: change.status, statusChangedAt: new Date() })
      .where(eq(submissions.id, submission.id));
    await recordSubmissionEvent(tx, {
      ...change,
      kind: "status",
      fromValue: submission.status,
      toValue: change.status,
    });
    return true;
  });
}

/** Gives a submission to an active staff user, or to no one (`assigneeId` null); false when nothing changed. */
export async function setSubmissionAssignee(
  db: Database,
  change: Change & { assigneeId: number | null },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const submission = await lockSubmission(tx, change.submissionId);
    if (submission.assigneeId === change.assigneeId) return false;
    const usernameOf = async (id: number | null, activeOnly: boolean) => {
      if (id === null) return null;
      const [user] = await tx
        .select({ username: staffUsers.username })
        .from(staffUsers)
        .where(activeOnly ? and(eq(staffUsers.id, id), eq(staffUsers.isActive, true)) : eq(staffUsers.id, id));
      return user?.username ?? null;
    };
    const assignee = await usernameOf(change.assigneeId, true);
    if (change.assigneeId !== null && assignee === null) {
      throw new WorkflowInputError("That staff user does not exist or is deactivated.");
    }
    await tx.update(submissions).set({ assigneeId: change.assigneeId }).where(eq(submissions.id, submission.id));
    await recordSubmissionEvent(tx, {
      ...change,
      kind: "assignee",
      fromValue: await usernameOf(submission.assigneeId, false),
      toValue: assignee,
    });
    return true;
  });
}

/** Adds an internal note; its text is kept as typed and always shown as text. */
export async function addSubmissionNote(db: Database, change: Change & { body: string }): Promise<void> {
  const body = change.body.trim();
  if (body.length === 0) throw new WorkflowInputError("Write the note first.");
  if (body.length > NOTE_MAX_LENGTH) {
    throw new WorkflowInputError(`A note has at most ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters.`);
  }
  await inTransaction(db, async (tx) => {
    await lockSubmission(tx, change.submissionId);
    await tx.insert(submissionNotes).values({ submissionId: change.submissionId, authorId: change.actorId, body });
    await recordSubmissionEvent(tx, { ...change, kind: "note" });
  });
}
