import { and, eq } from "drizzle-orm";
import { describeSubmissionType } from "~/features/submission-types.server";
import { type Database, inTransaction, type Transaction } from "~/services/db/database.server";
import { staffUsers, submissionNotes, submissions } from "~/services/db/schema.server";
import { NOTE_MAX_LENGTH } from "./note-limits";
import { lockSubmission, recordSubmissionEvent } from "./submission-changes.server";
import { displayNameOf } from "./submission-detail.server";
import { WorkflowInputError } from "./workflow-error";

type Change = { submissionId: number; actorId: number };
type LockedSubmission = Awaited<ReturnType<typeof lockSubmission>>;

/**
 * What a triage asks for; a field left out (undefined) is left as it is, so one form changes the status, the
 * assignee and adds a note together, or any one of them alone.
 */
export type Triage = { status?: string; assigneeId?: number | null; note?: string };

/** What a triage changed: the new status, the new assignee's display name (null: no one), whether a note was added. */
export type TriageOutcome = {
  status?: string;
  assignee?: { displayName: string | null };
  noteAdded: boolean;
};

async function applyStatus(tx: Transaction, submission: LockedSubmission, change: Change, status: string) {
  const { statuses, label } = describeSubmissionType(submission.type);
  if (!statuses.includes(status)) {
    throw new WorkflowInputError(`"${status}" is not a status of this ${label.toLowerCase()}: ${statuses.join(", ")}.`);
  }
  if (submission.status === status) return false;
  await tx.update(submissions).set({ status, statusChangedAt: new Date() }).where(eq(submissions.id, submission.id));
  await recordSubmissionEvent(tx, { ...change, kind: "status", fromValue: submission.status, toValue: status });
  return true;
}

/** The history keeps usernames (they never change); the page shows each as its display name. */
async function applyAssignee(
  tx: Transaction,
  submission: LockedSubmission,
  change: Change,
  assigneeId: number | null,
): Promise<TriageOutcome["assignee"]> {
  if (submission.assigneeId === assigneeId) return undefined;
  const userOf = async (id: number | null, activeOnly: boolean) => {
    if (id === null) return null;
    const [user] = await tx
      .select({ username: staffUsers.username, displayName: staffUsers.displayName })
      .from(staffUsers)
      .where(activeOnly ? and(eq(staffUsers.id, id), eq(staffUsers.isActive, true)) : eq(staffUsers.id, id));
    return user ?? null;
  };
  const assignee = await userOf(assigneeId, true);
  if (assigneeId !== null && assignee === null) {
    throw new WorkflowInputError("That staff user does not exist or is deactivated.");
  }
  await tx.update(submissions).set({ assigneeId }).where(eq(submissions.id, submission.id));
  await recordSubmissionEvent(tx, {
    ...change,
    kind: "assignee",
    fromValue: (await userOf(submission.assigneeId, false))?.username ?? null,
    toValue: assignee?.username ?? null,
  });
  return { displayName: assignee ? displayNameOf(assignee) : null };
}

async function applyNote(tx: Transaction, change: Change, note: string) {
  const body = note.trim();
  if (body.length === 0) return false;
  if (body.length > NOTE_MAX_LENGTH) {
    throw new WorkflowInputError(`A note has at most ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters.`);
  }
  await tx.insert(submissionNotes).values({ submissionId: change.submissionId, authorId: change.actorId, body });
  await recordSubmissionEvent(tx, { ...change, kind: "note" });
  return true;
}

/**
 * Status, assignee and a note in one transaction, each with its history line: a refused part (a status the
 * type lacks, a deactivated user, a note too long) changes nothing at all.
 */
export async function triageSubmission(db: Database, change: Change & Triage): Promise<TriageOutcome> {
  return inTransaction(db, async (tx) => {
    const submission = await lockSubmission(tx, change.submissionId);
    const who = { submissionId: change.submissionId, actorId: change.actorId };
    const statusChanged =
      change.status !== undefined && (await applyStatus(tx, submission, who, change.status))
        ? change.status
        : undefined;
    const assignee =
      change.assigneeId === undefined ? undefined : await applyAssignee(tx, submission, who, change.assigneeId);
    const noteAdded = change.note !== undefined && (await applyNote(tx, who, change.note));
    return { status: statusChanged, assignee, noteAdded };
  });
}

/** Moves a submission to another status of its type's workflow; false when it had that status already. */
export async function changeSubmissionStatus(db: Database, change: Change & { status: string }): Promise<boolean> {
  return (await triageSubmission(db, change)).status !== undefined;
}
