import { asc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { data } from "react-router";
import { describeSubmissionType } from "~/features/submission-types.server";
import { answerRows } from "~/forms/print-answer";
import type { WebhookUrls } from "~/outbox/targets.server";
import { listStaffUsers } from "~/server/auth/staff-users.server";
import type { Database } from "~/server/db/database.server";
import {
  deliveries,
  deliveryAttempts,
  staffUsers,
  submissionEvents,
  submissionFiles,
  submissionNotes,
  submissions,
} from "~/server/db/schema.server";
import { formatStaffTime } from "~/server/format-staff-time.server";
import { REPLAYABLE_STATUSES, replayDestination } from "./replay-delivery.server";

/** A positive whole number from a route parameter, or a 404: `/admin/inbox/abc` names no submission. */
export function parseRecordId(value: string | undefined, what: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value ?? "") || !Number.isSafeInteger(id) || id <= 0) {
    throw data({ message: `No such ${what}.` }, { status: 404 });
  }
  return id;
}

/** A payload value as one line of text, whatever its JSON type. */
function displayValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The fields as the form labelled them, printed as everywhere else; an unknown type shows its payload's own keys. */
function labelledFields(type: string, payload: Record<string, unknown>) {
  const description = describeSubmissionType(type);
  if (description.fields.length > 0) {
    return answerRows(description, payload).map(([label, value]) => ({ label, value }));
  }
  return Object.entries(payload).map(([key, value]) => ({ label: key, value: displayValue(value) }));
}

/** Everything the detail page shows of one submission, without file contents. A 404 for an unknown id. */
export async function loadSubmissionDetail(db: Database, submissionId: number, urls: WebhookUrls) {
  const assignee = alias(staffUsers, "assignee");
  const [row] = await db
    .select({ submission: submissions, assigneeUsername: assignee.username })
    .from(submissions)
    .leftJoin(assignee, eq(assignee.id, submissions.assigneeId))
    .where(eq(submissions.id, submissionId));
  if (!row) throw data({ message: "No such submission." }, { status: 404 });
  const { submission } = row;
  const description = describeSubmissionType(submission.type);

  const [files, deliveryRows, notes, events, staff] = await Promise.all([
    db
      .select({
        id: submissionFiles.id,
        fieldName: submissionFiles.fieldName,
        fileName: submissionFiles.fileName,
        sentAs: submissionFiles.sentAs,
        sizeBytes: submissionFiles.sizeBytes,
      })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, submissionId))
      .orderBy(asc(submissionFiles.id)),
    db
      .select({
        id: deliveries.id,
        webhookId: deliveries.webhookId,
        channel: deliveries.channel,
        target: deliveries.target,
        destination: deliveries.destination,
        status: deliveries.status,
        attemptCount: deliveries.attemptCount,
        nextAttemptAt: deliveries.nextAttemptAt,
        lastError: deliveries.lastError,
        deliveredAt: deliveries.deliveredAt,
      })
      .from(deliveries)
      .where(eq(deliveries.submissionId, submissionId))
      .orderBy(asc(deliveries.id)),
    db
      .select({
        id: submissionNotes.id,
        body: submissionNotes.body,
        createdAt: submissionNotes.createdAt,
        author: staffUsers.username,
      })
      .from(submissionNotes)
      .leftJoin(staffUsers, eq(staffUsers.id, submissionNotes.authorId))
      .where(eq(submissionNotes.submissionId, submissionId))
      .orderBy(asc(submissionNotes.createdAt), asc(submissionNotes.id)),
    db
      .select({
        id: submissionEvents.id,
        kind: submissionEvents.kind,
        fromValue: submissionEvents.fromValue,
        toValue: submissionEvents.toValue,
        createdAt: submissionEvents.createdAt,
        actor: staffUsers.username,
      })
      .from(submissionEvents)
      .leftJoin(staffUsers, eq(staffUsers.id, submissionEvents.actorId))
      .where(eq(submissionEvents.submissionId, submissionId))
      .orderBy(asc(submissionEvents.createdAt), asc(submissionEvents.id)),
    listStaffUsers(db),
  ]);
  const attempts =
    deliveryRows.length === 0
      ? []
      : await db
          .select()
          .from(deliveryAttempts)
          .where(
            inArray(
              deliveryAttempts.deliveryId,
              deliveryRows.map((delivery) => delivery.id),
            ),
          )
          .orderBy(asc(deliveryAttempts.startedAt), asc(deliveryAttempts.id));

  return {
    submission: {
      id: submission.id,
      reference: submission.reference,
      type: submission.type,
      typeLabel: description.label,
      received: formatStaffTime(submission.createdAt),
      status: submission.status,
      statusSince: formatStaffTime(submission.statusChangedAt),
      assigneeId: submission.assigneeId,
      assigneeUsername: row.assigneeUsername,
      isSpam: submission.isSpam,
      spamReason: submission.spamReason,
      suspiciousReason: submission.suspiciousReason,
    },
    statuses: [...description.statuses],
    fields: labelledFields(submission.type, submission.payload),
    files,
    // Times as staff read them, formatted here (see formatStaffTime).
    deliveries: deliveryRows.map(({ nextAttemptAt, deliveredAt, ...delivery }) => ({
      ...delivery,
      nextTry: formatStaffTime(nextAttemptAt),
      delivered: deliveredAt && formatStaffTime(deliveredAt),
      canReplay: !submission.isSpam && REPLAYABLE_STATUSES.includes(delivery.status),
      replayTo: replayDestination(delivery, urls) ?? null,
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map(({ startedAt, ...attempt }) => ({ ...attempt, started: formatStaffTime(startedAt) })),
    })),
    notes: notes.map(({ createdAt, ...note }) => ({ ...note, written: formatStaffTime(createdAt) })),
    events: events.map(({ createdAt, ...event }) => ({ ...event, at: formatStaffTime(createdAt) })),
    assignableStaff: staff
      .filter((user) => user.isActive || user.id === submission.assigneeId)
      .map((user) => ({ id: user.id, username: user.username })),
  };
}

export type SubmissionDetail = Awaited<ReturnType<typeof loadSubmissionDetail>>;
